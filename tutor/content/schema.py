"""The JSON Schema of a pack file, for editors (``# yaml-language-server: $schema=...``)."""

from __future__ import annotations

from typing import Any

from tutor.content.models import Pack

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: descriptions for keys the models leave undescribed, by (definition, key)
DESCRIPTIONS = {
    ("Pack", "title"): "the pack's title, shown in the drill list",
    ("Pack", "description"): "a paragraph about the pack",
    ("Choice", "answer"): "the answer's text, as the learner sees it",
    ("Choice", "correct"): "true for the one correct answer",
    ("Check", "trials"): "how many random inputs the answer is compared on",
    ("CodeDrill", "starter"): "the code the learner starts from; it must fail the check",
    ("CodeDrill", "reference"): "a correct answer; it must pass the check",
    ("FixDrill", "starter"): "the broken code the learner repairs; it must fail the check",
    ("FixDrill", "reference"): "the repaired code; it must pass the check",
    ("CodeDrill", "check"): "how answers are graded",
    ("FixDrill", "check"): "how answers are graded",
    ("TensorArg", "dtype"): "torch dtype name, e.g. float32, float64, int64",
    ("TensorArg", "requires_grad"): "create the tensor with requires_grad=True",
    ("ValueArg", "value"): "any YAML value; a string `{name}` is replaced by a param",
    ("ChoiceParam", "choice"): "the values to draw from (at least one)",
    ("IntParam", "int"): "inclusive [low, high], low <= high",
    ("OrderDrill", "lines"): "the lines in the correct order (at least two)",
    ("ChoiceDrill", "choices"): "the answers, exactly one with `correct: true`",
}


def _kind_description(name: str) -> str | None:
    if name.endswith("Drill"):
        return f"`{name[:-5].lower()}`: one of predict, order, choice, code, fix"
    return None


def _close(node: Any, name: str | None = None) -> None:
    """Forbid extra keys on every object and fill in missing descriptions, recursively."""
    if isinstance(node, dict):
        if "properties" in node:
            node["additionalProperties"] = False
            for key, prop in node["properties"].items():
                text = DESCRIPTIONS.get((name, key)) if name else None
                if key == "kind" and name:
                    text = _kind_description(name)
                if text and "description" not in prop:
                    prop["description"] = text
        for value in node.values():
            _close(value)
    elif isinstance(node, list):
        for value in node:
            _close(value)


def pack_schema() -> dict[str, Any]:
    """The JSON Schema of one pack file (keys by their YAML names; extra keys forbidden)."""
    schema = Pack.model_json_schema(by_alias=True, mode="validation")
    schema["properties"].pop("source", None)
    definitions = schema.pop("$defs", {})
    for name, definition in definitions.items():
        _close(definition, name)
    _close(schema, "Pack")
    schema["$defs"] = definitions
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "tutor drill pack",
        "description": "One YAML file of drills for tutor (see docs/packs.md).",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }
