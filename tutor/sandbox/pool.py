"""``SandboxPool``: one blocking ``Sandbox`` per runtime, each started on first use.

Content may declare the runtime it runs on (``runtime: xla`` in a pack, a drill or a lesson
snippet); a command that runs a whole pack or lesson keeps one sandbox per runtime it meets.
A declared ``None`` or ``"default"`` means the runtime the command was started with.
"""

from __future__ import annotations

from tutor.sandbox.runtimes import RuntimeNotFound
from tutor.sandbox.sync import Sandbox


def runtime_of(declared: str | None, default: str | None) -> str | None:
    """The runtime a piece of content runs on: its own, or ``default`` when it names none."""
    return default if declared in (None, "default") else declared


class SandboxPool:
    """Sandboxes by runtime, made on first use and closed together.

    ``default`` is the runtime of content that names none (None: this interpreter's).
    ``given`` maps runtime names to sandboxes that already exist (the pool uses them and
    leaves them open; ``None`` is the default's key).
    """

    def __init__(
        self,
        default: str | None = None,
        *,
        containment: str | None = None,
        given: dict[str | None, Sandbox] | None = None,
    ) -> None:
        self.default = default
        self.containment = containment
        self._given = dict(given or {})
        self._made: dict[str | None, Sandbox] = {}
        self._missing: dict[str | None, RuntimeNotFound] = {}

    def get(self, declared: str | None = None) -> Sandbox:
        """The sandbox for content declaring ``declared``; raises ``RuntimeNotFound`` (or its
        ``RuntimeNotBuilt``) when that runtime cannot be had, every time it is asked for."""
        name = runtime_of(declared, self.default)
        key = None if name == self.default else name
        if key in self._given:
            return self._given[key]
        if key in self._missing:
            raise self._missing[key]
        if key not in self._made:
            try:
                self._made[key] = Sandbox(name, containment=self.containment)
            except RuntimeNotFound as exc:
                self._missing[key] = exc
                raise
        return self._made[key]

    def close(self) -> None:
        """Close the sandboxes the pool made (not the given ones)."""
        made, self._made = self._made, {}
        for box in made.values():
            box.close()

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
