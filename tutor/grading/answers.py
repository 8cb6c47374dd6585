"""Read a learner's typed answer to a predict drill, generously and safely.

The text is parsed with :func:`ast.parse` and walked by hand: nothing is ever evaluated, so no
learner text runs in the UI process. Understood: numbers (with ``+ - * / // % **`` between
literals), booleans (``True``/``true``), ``None``, strings, tuples and lists (``(1, 2)``,
``[1, 2]``, ``1, 2``, ``1 2``), ``torch.Size([...])``, ``tensor([...], dtype=...)`` as
printed by torch, ``torch.device('cpu')``, dicts, exception names (``RuntimeError``,
``raises RuntimeError: ...``) and bare words (``float32``, ``torch.float32``, ``cpu``), which the
comparison interprets according to the truth. A number followed by one word (``16 samples``,
``209.4 MiB``, ``50%``) is a :class:`Measured`: the judge reads it as the number, unless the
word is a unit other than the one the drill asks in.

Thousands separators: a comma between groups of exactly three digits, with no space, inside one
number (``470,292``, ``99,840.0``), is read as a separator where the truth is one number
(``tutor.grading.predict``) and after a number that carries a word; everywhere else a comma
separates items (``1, 12, 4``). A comma that is neither (``3,5``) is not guessed at.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from typing import Any

MAX_LENGTH = 20_000
MAX_NODES = 50_000


class AnswerError(ValueError):
    """The answer could not be read; the message says why in plain words."""


class Approx(float):
    """A float the learner typed; ``slack`` is half a unit of its last typed digit."""

    slack: float = 0.0


class Seq(list[Any]):
    """A sequence the learner typed; ``kind`` is ``tuple``, ``list``, ``size`` or ``bare``."""

    kind: str = "list"


@dataclass(frozen=True)
class Measured:
    """A number followed by a word (``16 samples``, ``209.4 MiB``): the number, and the word."""

    value: int | float
    word: str


@dataclass(frozen=True)
class Word:
    """A bare name or dotted name (``float32``, ``torch.float32``, ``cpu``)."""

    text: str


@dataclass(frozen=True)
class ExcName:
    """An exception named by type (``RuntimeError``); ``message`` when one was typed too."""

    name: str
    message: str = ""


@dataclass(frozen=True)
class Device:
    """``torch.device('cuda', 0)`` and friends."""

    type: str
    index: int | None = None


@dataclass
class TensorLit:
    """``tensor([...], dtype=..., requires_grad=...)`` as printed by torch."""

    values: Any
    dtype: str | None = None
    requires_grad: bool | None = None
    extras: dict[str, Any] = field(default_factory=dict)


_EXC = re.compile(
    r"^(?:raises?|throws?|error)?[:\s]*((?:[A-Za-z_]\w*\.)*"
    r"[A-Za-z_]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration))\b\s*(?:[:(]\s*(.*))?$",
    re.DOTALL | re.IGNORECASE,
)
_NUMBERS = re.compile(
    r"^[\s,]*[-+]?[\d.]+(?:e[-+]?\d+)?(?:[\s,]+[-+]?[\d.]+(?:e[-+]?\d+)?)+[\s,]*$"
)
#: a number (separators allowed) and one word after it: ``16 samples``, ``209.4MiB``, ``50 %``
_MEASURED = re.compile(
    r"^(?P<num>[-+]?[\d.,]*\d[\d.,]*(?:e[-+]?\d+)?)\s*(?P<word>%|[A-Za-zµμ][A-Za-zµμ/]*)$",
    re.IGNORECASE,
)
#: commas between groups of three digits inside one number: ``470,292``, ``-1,024.5``
THOUSANDS = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:e[-+]?\d+)?", re.IGNORECASE)
#: a comma inside digits that is no thousands separator: ``3,5``, ``1,0000``
ODD_COMMA = re.compile(r"[-+]?\d+(?:,\d+)+(?:\.\d*)?(?:e[-+]?\d+)?", re.IGNORECASE)
_WORDS = {"true": True, "false": False, "nan": math.nan, "inf": math.inf, "none": None}


def clean(text: str) -> str:
    """Strip what people paste around an answer: backticks, prompts, ``grad_fn=<...>``."""
    text = text.strip()
    text = re.sub(r"^```\w*\n?|\n?```$", "", text).strip().strip("`").strip()
    text = re.sub(r"^(>>>|\$|=>?|->)\s*", "", text)
    text = re.sub(r"^Parameter containing:\s*", "", text)
    text = re.sub(r",?\s*grad_fn=<\w+>", "", text)
    if text.endswith((".", ";")) and len(text) > 1 and not text[-2].isdigit():
        text = text[:-1].rstrip()
    return text


def parse_answer(text: str) -> Any:
    """The learner's answer as a Python value or one of this module's answer types."""
    if len(text) > MAX_LENGTH:
        raise AnswerError(f"the answer is longer than {MAX_LENGTH} characters")
    text = clean(text)
    if not text:
        raise AnswerError("the answer is empty")
    m = _EXC.match(text)
    if m and "\n" not in m.group(1):
        return ExcName(m.group(1).rsplit(".", 1)[-1], (m.group(2) or "").strip().rstrip(")"))
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    if tree is not None:
        if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
            raise AnswerError("the answer is too large to read")
        try:
            return _Reader(text).read(tree.body)
        except RecursionError as exc:
            raise AnswerError("the answer is nested too deeply") from exc
    if _NUMBERS.match(text):
        seq = Seq(parse_answer(p) for p in re.split(r"[\s,]+", text.strip(" ,")) if p)
        seq.kind = "bare"
        return seq
    measured = _MEASURED.match(text)
    if measured and measured.group("word").lower() not in _WORDS:
        return Measured(read_number(measured.group("num")), measured.group("word"))
    if re.fullmatch(r"[\w. :'\"-]+", text):
        return Word(text.strip("'\""))
    raise AnswerError(
        "could not read that; write a Python-style value such as (2, 3), 4.5, True, "
        "torch.float32, tensor([[1, 2]]) or an exception name such as RuntimeError"
    )


def odd_comma(text: str) -> AnswerError:
    """The error for a comma inside digits that is no thousands separator (``3,5``)."""
    return AnswerError(
        f"`{text.strip()}` has a comma that is not a thousands separator: write a decimal with a "
        "point (3.5), thousands as 1,000, and several numbers with a space after each comma "
        "(3, 5)"
    )


def read_number(text: str) -> int | float:
    """One number as typed, thousands separators allowed (``99,840.0`` -> 99840.0, keeping the
    rounding the learner did); AnswerError when it is not one number."""
    text = text.strip()
    if "," in text:
        if not THOUSANDS.fullmatch(text):
            raise odd_comma(text)
        text = text.replace(",", "")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        raise AnswerError(f"`{text}` is not a number") from None
    value = _Reader(text).read(tree.body)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AnswerError(f"`{text}` is not a number")
    return value


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _slack(source: str) -> float:
    """Half a unit of the last digit typed in a float literal (``0.333`` -> 0.0005)."""
    mantissa, _, exp = source.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    digits = len(mantissa.replace(".", "").lstrip("0-+"))
    if digits < 3:
        return 0.0
    return 0.5 * 10.0 ** (-decimals + (int(exp) if exp.strip("+-").isdigit() else 0))


class _Reader:
    """Walks the parsed answer, turning literal syntax into values; anything else is refused."""

    def __init__(self, source: str) -> None:
        self.source = source

    def read(self, node: ast.AST) -> Any:
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise AnswerError(f"cannot read `{ast.get_source_segment(self.source, node)}`")
        return method(node)

    def _Constant(self, node: ast.Constant) -> Any:
        if isinstance(node.value, float):
            seg = ast.get_source_segment(self.source, node) or ""
            value = Approx(node.value)
            value.slack = _slack(seg)
            return value
        return node.value

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.read(node.operand)
        if isinstance(value, bool) or not isinstance(value, int | float | complex):
            raise AnswerError("a sign can only come before a number")
        if isinstance(node.op, ast.USub):
            if isinstance(value, Approx):
                neg = Approx(-value)
                neg.slack = value.slack
                return neg
            return -value
        if isinstance(node.op, ast.UAdd):
            return value
        raise AnswerError("only + and - can come before a number")

    def _BinOp(self, node: ast.BinOp) -> Any:
        a, b = self.read(node.left), self.read(node.right)
        if any(isinstance(v, bool) or not isinstance(v, int | float) for v in (a, b)):
            raise AnswerError("arithmetic works on numbers only")
        if isinstance(node.op, ast.Pow) and (abs(b) > 64 or abs(a) > 1e6):
            raise AnswerError("that power is too large")
        ops = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__",
               ast.Div: "__truediv__", ast.FloorDiv: "__floordiv__", ast.Mod: "__mod__",
               ast.Pow: "__pow__"}  # fmt: skip
        name = ops.get(type(node.op))
        if name is None:
            raise AnswerError("only + - * / // % ** are understood between numbers")
        if isinstance(a, int) and isinstance(b, int) and max(abs(a), abs(b)) > 10**18:
            raise AnswerError("numbers that large are not needed here")
        try:
            return (
                float(getattr(float(a), name)(b))
                if isinstance(a, float) or isinstance(b, float)
                else getattr(a, name)(b)
            )
        except (ArithmeticError, ValueError) as exc:
            raise AnswerError(f"cannot compute that: {exc}") from exc

    def _seq(self, items: list[ast.expr], kind: str) -> Seq:
        seq = Seq(self.read(i) for i in items)
        seq.kind = kind
        return seq

    def _Tuple(self, node: ast.Tuple) -> Seq:
        return self._seq(node.elts, "tuple")

    def _List(self, node: ast.List) -> Seq:
        return self._seq(node.elts, "list")

    def _Dict(self, node: ast.Dict) -> dict[Any, Any]:
        keys = []
        for k in node.keys:
            if k is None:
                raise AnswerError("`**` cannot be read in a dict")
            keys.append(self.read(k))
        try:
            return dict(zip(keys, (self.read(v) for v in node.values), strict=True))
        except TypeError as exc:
            raise AnswerError("dict keys must be numbers or strings") from exc

    def _Name(self, node: ast.Name) -> Any:
        low = node.id.lower()
        if low in _WORDS:
            return _WORDS[low]
        return Word(node.id)

    def _Attribute(self, node: ast.Attribute) -> Word:
        name = _dotted(node)
        if name is None:
            raise AnswerError(f"cannot read `{ast.get_source_segment(self.source, node)}`")
        return Word(name)

    def _Call(self, node: ast.Call) -> Any:
        name = _dotted(node.func) or ""
        short = name.rsplit(".", 1)[-1]
        kwargs = {k.arg: self.read(k.value) for k in node.keywords if k.arg}
        args = [self.read(a) for a in node.args]
        if short == "Size":
            seq = Seq(args[0] if args else [])
            seq.kind = "size"
            return seq
        if short in ("tensor", "Tensor", "Parameter", "array") and len(args) == 1:
            dtype = kwargs.pop("dtype", None)
            grad = kwargs.pop("requires_grad", None)
            return TensorLit(
                args[0], dtype.text if isinstance(dtype, Word) else dtype, grad, kwargs
            )
        if short == "device":
            kind = args[0] if args else kwargs.get("type", "")
            index = args[1] if len(args) > 1 else kwargs.get("index")
            if isinstance(kind, str) and ":" in kind:
                kind, _, idx = kind.partition(":")
                index = int(idx) if idx.isdigit() else index
            return Device(str(kind), index)
        if _EXC.match(short):
            return ExcName(short, str(args[0]) if args else "")
        raise AnswerError(f"cannot read the call `{name}(...)`; type the value it gives")
