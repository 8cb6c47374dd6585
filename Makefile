# Set-up and everyday commands. `make run` and `make test` work on a fresh machine:
# they create .venv when needed and install what is missing.
PYTHON ?= python3
VENV ?= .venv
# The pinned CPU build of torch is installed before the package, so nothing pulls a CUDA build.
TORCH_SPEC ?= torch==2.13.0
BIN := $(VENV)/bin

.PHONY: run test install install-dev lint format bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install "$(TORCH_SPEC)"
	$(BIN)/pip install -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(BIN)/pip install -e ".[dev]"
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

run: install
	$(BIN)/tutor

# Two pytest-xdist workers: a test module (or a named xdist_group) runs on one worker, so
# its shared sandbox starts once (tests/conftest.py). TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= 2
test: install-dev
	$(BIN)/pytest -q --durations=15 -n $(TEST_WORKERS) --dist loadgroup

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install-dev
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

# A second sandbox runtime with torch_xla (CPU PJRT) and torchax: ~7.6 GB, a few minutes.
# The tutor finds it at PROJECT_ROOT/.venv-xla with no configuration.
XLA_VENV ?= .venv-xla
XLA_PINS ?= torch==2.9.0 torch_xla==2.9.0 torchax==0.0.13 "jax[cpu]==0.10.2" flax==0.12.8 optax==0.2.8
.PHONY: xla-runtime
xla-runtime: $(XLA_VENV)/.installed

$(XLA_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(XLA_VENV)
	$(XLA_VENV)/bin/pip install --upgrade pip
	$(XLA_VENV)/bin/pip install $(XLA_PINS)
	$(XLA_VENV)/bin/pip install pydantic pyyaml platformdirs click packaging pyseccomp
	$(XLA_VENV)/bin/pip install -e . --no-deps
	touch $@
