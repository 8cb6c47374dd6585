"""The JSON Schema of a pack accepts real packs and rejects what the loader rejects."""

from __future__ import annotations

import copy
from pathlib import Path

import jsonschema
import pytest
import yaml

from tutor.content.scaffold import scaffold
from tutor.content.schema import pack_schema

PACKS = Path(__file__).parent / "packs"


@pytest.fixture(scope="module")
def validator():
    schema = pack_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def example() -> dict:
    return yaml.safe_load((PACKS / "packs-example.yaml").read_text(encoding="utf-8"))


def test_packs_md_example_is_valid(validator):
    assert list(validator.iter_errors(example())) == []


def test_scaffold_is_valid(validator):
    assert list(validator.iter_errors(yaml.safe_load(scaffold("demo", "demo.yaml")))) == []


@pytest.mark.parametrize(
    "where",
    [
        lambda d: d,
        lambda d: d["drills"][0],
        lambda d: d["drills"][0]["params"]["a"],
        lambda d: d["drills"][2]["choices"][0],
        lambda d: d["drills"][3]["check"],
        lambda d: d["drills"][3]["check"]["args"]["a"],
    ],
)
def test_unknown_keys_are_rejected_everywhere(validator, where):
    data = copy.deepcopy(example())
    where(data)["surprise"] = 1
    errors = list(validator.iter_errors(data))
    assert errors, "an unknown key was accepted"


def test_unknown_kind_and_bad_values_are_rejected(validator):
    data = example()
    data["drills"][0]["kind"] = "predcit"
    assert list(validator.iter_errors(data))
    data = example()
    data["drills"][0]["params"]["a"] = {"int": [1, 2, 3]}
    assert list(validator.iter_errors(data))
    data = example()
    data["pack"] = "Not An Id"
    assert list(validator.iter_errors(data))


def test_schema_describes_keys_by_their_yaml_names():
    schema = pack_schema()
    assert "source" not in schema["properties"]
    assert schema["additionalProperties"] is False
    check = schema["$defs"]["Check"]["properties"]
    assert "assert" in check and "assert_" not in check
    assert schema["$defs"]["IntParam"]["properties"]["int"]["description"]
    for name, definition in schema["$defs"].items():
        assert definition.get("additionalProperties") is False, name
