"""Errors as JSON: a command given ``--json`` answers one JSON object on stdout even when it fails.

``{"error": "..."}`` with the same non-zero exit status the plain error would have had, so a
script reading stdout never has to parse an English message from stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import click


class JsonErrorsGroup(click.Group):
    """A group whose ``main`` reports failures as ``{"error": ...}`` when ``--json`` is given."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode or "--json" not in argv:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            click.echo(json.dumps({"error": exc.format_message()}))
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo(json.dumps({"error": "aborted"}))
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
