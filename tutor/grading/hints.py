"""Failure categories and the targeted hint the engine adds for each (torch-free).

A pack's own hints are revealed in order by the UI; on top of them a grade carries one hint
chosen from *how* the answer failed (``Grade.category``).
"""

from __future__ import annotations

import re

HINTS: dict[str, str] = {
    "non_contiguous_view": (
        "`.view` only relabels memory, so it needs the elements already laid out in the new "
        "order; after `permute`, `transpose`, `.T` or `expand` they are not. Use `.reshape(...)` "
        "(it copies only when it has to) or call `.contiguous()` before `.view`."
    ),
    "broadcasting": (
        "Broadcasting lines shapes up from the right: in each column the sizes must be equal "
        "or one of them 1. Write both shapes right-aligned, one above the other, and check "
        "every column; add a size-1 axis with `x[:, None]` or `unsqueeze` where one is missing."
    ),
    "dtype_promotion": (
        "Mixed dtypes are promoted: a float tensor beats an int tensor, a Python float keeps a "
        "float tensor's dtype, `/` on ints gives the default float dtype, and a 0-d tensor or "
        "Python scalar never widens a tensor of the same kind. Check each operand's dtype."
    ),
    "device_mismatch": (
        "Every tensor in one operation must live on the same device. Create new tensors with "
        "`device=x.device` (or `torch.zeros_like(x)`), not with the CPU default."
    ),
    "raised": (
        "Your code raised an exception instead of returning a value. Read the last line of the "
        "message and the line of your code it names, then trace that line by hand."
    ),
    "missed_raise": (
        "Before working out a value, check the call is legal here at all: what does it require "
        "of its inputs (their shapes, layout, dtypes, devices), and do these inputs meet it?"
    ),
    "collate": (
        "A DataLoader's default collate stacks the samples of a batch into one tensor, so "
        "every sample of a batch must have the same shape. Which samples share a batch, and "
        "do their shapes agree? (A `collate_fn` of your own can pad them.)"
    ),
    "mask_dtype": (
        "A mask must be a bool tensor: a comparison (`x > 0`) gives one, `.bool()` converts one. "
        "Indexing takes bool or integer tensors only, and float values never select."
    ),
    "predicted_raise": (
        "This operation is legal here. Work out the shapes step by step: size-1 dimensions "
        "stretch, and a view is possible whenever the memory layout allows it."
    ),
    "inplace_saved": (
        "Some node on the tape saved a tensor for backward, and an in-place op changed it "
        "afterwards. Which operations need their input or their output to compute a derivative?"
    ),
    "inplace_leaf": (
        "An in-place op on a leaf that requires grad is refused while the tape is on. Which "
        "tensor does the op really write to: the leaf, a detached view of it, or a new tensor?"
    ),
    "backward_twice": (
        "The first `backward()` freed what the nodes saved. Does any node on this tape need a "
        "saved tensor to compute its derivative?"
    ),
    "exception_unnamed": "Name the exception's type, as Python prints it (e.g. `ValueError`).",
    "exception_spelling": "Type the exception's class name exactly as Python spells it.",
    "wrong_exception": (
        "Torch raises a different exception type. Shape, view and dtype problems are usually a "
        "`RuntimeError`; a bad index is an `IndexError`; a wrong argument type a `TypeError`."
    ),
    "row_major_strides": (
        "Those are the strides of a freshly made contiguous tensor. `permute`/`transpose` do not "
        "recompute strides: they reorder the strides the tensor already had, exactly as they "
        "reorder its shape."
    ),
    "transposed_shape": (
        "The sizes are right but two dimensions are swapped. Follow each dimension through the "
        "operation: which input dim ends up at each output position?"
    ),
    "wrong_order": (
        "The right values, in the wrong order. Check which dimension each one belongs to, and "
        "remember tensors are printed row-major: the last index changes fastest."
    ),
    "shape": "Work out the shape first, dimension by dimension, before any values.",
    "values": (
        "Work out each entry named above by hand from the inputs, one step at a time, and see "
        "where your reasoning (or your code) parts from what torch does."
    ),
    "value": (
        "Redo the computation by hand from this variant's numbers, one step at a time, and "
        "check each intermediate result against the rule the question is about."
    ),
    "bool": (
        "Go back to the rule the question tests and apply it to this variant: which condition "
        "decides the answer, and does it hold here?"
    ),
    "dtype": (
        "Follow the dtype through each step: a constructor's default (float32, int64), every "
        "`.to()` (which converts floating-point tensors only), and the promotion rules where two "
        "dtypes meet."
    ),
    "requires_grad": (
        "A result requires grad when an input that requires grad took part and nothing "
        "(`torch.no_grad()`, `.detach()`) cut it from the tape."
    ),
    "forbidden_loop": (
        "Think in whole tensors: replace the loop with broadcasting (`a[:, None] * b`), a "
        "reduction along a `dim`, or indexing."
    ),
    "forbidden": (
        "The drill refuses the construct named above so that you practise another way: build "
        "the result from the operations the prompt allows."
    ),
    "tampered": (
        "The check runs the drill's setup beside your code and relies on its names, on torch's "
        "modules and classes, and on reading your code. Use your own names, call torch rather "
        "than change it, and write every name and call out plainly."
    ),
    "input_changed": (
        "The drill asks you to leave your inputs as they came. Work on a copy "
        "(`x.detach().clone()`), and avoid in-place methods (`add_`, `requires_grad_`) on the "
        "arguments themselves."
    ),
    "type": "Check what kind of object the expression gives back: a tensor, a Size, a number?",
}

_PATTERNS: list[tuple[str, str]] = [
    ("inplace_saved", r"modified by an inplace operation"),
    ("inplace_leaf", r"leaf Variable that requires grad is being used in an in-place"),
    ("backward_twice", r"backward through the graph a second time"),
    ("non_contiguous_view", r"view size is not compatible|use \.reshape|not contiguous"),
    ("collate", r"stack expects each tensor to be equal size|default_collate|DataLoader worker"),
    ("mask_dtype", r"boolean mask|expected condition to be a boolean|expected BoolTensor|"
                   r"used as indices must be long, int, byte or bool"),
    ("broadcasting", r"must match the size of tensor|cannot be broadcast|not broadcastable|"
                     r"shape mismatch|doesn't match the broadcast shape|expanded size"),
    ("device_mismatch", r"same device|device type|on cuda|on cpu.* but"),
    ("dtype_promotion", r"scalar type|result type|dtype|can't be cast|"
                        r"\b(?:Float|Double|Long|Half)\b"),
]  # fmt: skip


def exception_category(message: str) -> str | None:
    """The failure category an exception message points to, if it points to one."""
    for category, pattern in _PATTERNS:
        if re.search(pattern, message):
            return category
    return None


def hint_for_category(category: str | None) -> str | None:
    """The targeted hint for a failure category (None when there is none)."""
    return HINTS.get(category) if category else None
