"""What every command reads from its click context: the settings (``--pack``, ``--runtime``),
the catalog they load, and the sandbox they open."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from tutor.content.catalog import Catalog, DrillRef
    from tutor.content.problems import Problem
    from tutor.sandbox import Sandbox
    from tutor.sandbox.pool import SandboxPool
    from tutor.settings import Settings


def settings_of(ctx: click.Context | None = None) -> Settings:
    """This invocation's settings (the current context's when ``ctx`` is None); a command
    invoked on its own gets them from ``TUTOR_PACKS``, kept for the rest of the invocation."""
    from tutor.settings import Settings

    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return Settings.from_options()
    found = ctx.find_object(Settings)
    if found is None:
        found = ctx.find_root().obj = Settings.from_options()
    return found


def pack_option(command: F) -> F:
    """``--pack PATH`` (repeatable) on a subcommand that reads packs, so it may come after the
    subcommand too (``tutor drill run --pack P ...``): added to those given to ``tutor``."""

    def add(ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> None:
        if values:
            settings_of(ctx).packs.extend(Path(v) for v in values)

    return click.option(
        "--pack",
        "packs",
        multiple=True,
        type=click.Path(),
        expose_value=False,
        is_eager=True,
        callback=add,
        help="Add a pack file or folder (repeatable); also accepted before the subcommand.",
    )(command)


def load_catalog(ctx: click.Context | None = None) -> Catalog:
    """The catalog for this invocation's settings (``--pack``, ``TUTOR_PACKS``)."""
    from tutor.content.catalog import Catalog

    return Catalog.load(settings_of(ctx))


def find_drill(catalog: Catalog, drill_id: str) -> DrillRef:
    """The drill ``drill_id`` names; an unknown id is an error with a did-you-mean."""
    try:
        return catalog.drill(drill_id)
    except KeyError:
        ids = [r.full_id for r in catalog.drills()]
        close = difflib.get_close_matches(drill_id, ids, n=1)
        if not close:  # a bare drill id, without its pack
            close = [i for i in ids if i.split("/", 1)[-1] == drill_id][:1]
        more = f" (did you mean {close[0]}?)" if close else ""
        raise click.ClickException(f"no drill {drill_id!r}{more}; see `tutor drill list`") from None


def warn_problems(problems: list[Problem]) -> None:
    """Tell the user on stderr about content that was skipped."""
    for problem in problems:
        click.echo(f"skipped: {problem}", err=True)


def open_sandbox(
    ctx: click.Context | None = None,
    *,
    runtime: str | None = None,
    containment: str | None = None,
    needed_by: str | None = None,
) -> Sandbox:
    """A sandbox on this invocation's runtime (``runtime`` wins over ``--runtime``); an unknown
    runtime is a usage error. ``needed_by`` names the content that declared the runtime (a
    drill): a runtime not built is then an error saying what it needs. A context manager."""
    from tutor.sandbox import Sandbox
    from tutor.sandbox.runtimes import RuntimeNotBuilt, RuntimeNotFound

    try:
        return Sandbox(runtime or settings_of(ctx).runtime, containment=containment)
    except RuntimeNotBuilt as exc:
        if needed_by:
            raise click.ClickException(f"{needed_by} {exc.needs}") from exc
        raise click.UsageError(str(exc)) from exc
    except RuntimeNotFound as exc:
        raise click.UsageError(str(exc)) from exc


def open_pool(ctx: click.Context | None = None) -> SandboxPool:
    """One sandbox per runtime for content that declares its own (``runtime: xla``), each
    started on first use; the default is this invocation's runtime. A context manager."""
    from tutor.sandbox.pool import SandboxPool
    from tutor.sandbox.runtimes import RuntimeNotFound

    pool = SandboxPool(settings_of(ctx).runtime)
    try:
        pool.get()  # the default runtime must exist: a usage error otherwise
    except RuntimeNotFound as exc:
        raise click.UsageError(str(exc)) from exc
    return pool
