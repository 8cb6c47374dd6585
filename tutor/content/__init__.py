"""Content: pydantic models, YAML loading with file:line:col errors, and the catalog.

``load_pack``, ``Catalog``, ``Problem`` and ``PackError`` are importable from here; they load
lazily so that importing a small module of this package stays cheap.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "load_pack": "tutor.content.loader",
    "load_pack_located": "tutor.content.loader",
    "Catalog": "tutor.content.catalog",
    "DrillRef": "tutor.content.catalog",
    "Problem": "tutor.content.problems",
    "PackError": "tutor.content.problems",
    "load_lesson": "tutor.content.lessons",
    "load_chapters": "tutor.content.lessons",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tutor.content' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
