"""The content model: chapters, lessons, drill packs and the five drill kinds.

These pydantic models are the contract between pack files (see docs/packs.md), the grading
engine and the UI. They are strict: an unknown key is an error, never silently dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    WithJsonSchema,
    model_validator,
)

from tutor.content.signatures import signatures
from tutor.content.template import render
from tutor.content.units import known_unit
from tutor.settings import runtime_limits, runtime_names

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
KINDS = ("predict", "order", "choice", "code", "fix")


class Strict(BaseModel):
    """Base for every content model: unknown keys are errors; models are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


#: the sandbox's limits profiles (tutor.sandbox.limits.PROFILES): ``compile`` lets
#: torch.compile finish; ``default`` keeps runs tight
LimitsName = Literal["default", "compile"]


def _known_runtime(name: str) -> str:
    """A runtime a pack, drill or lesson may declare (``tutor.settings.runtime_names``)."""
    known = runtime_names()
    if name not in known:
        names = ", ".join(sorted(known - {"default"}))
        raise ValueError(
            f"unknown runtime {name!r}: use {names}, default, or a name under [runtimes] in "
            "the config file"
        )
    return name


#: the sandbox runtime a drill or snippet runs on: ``xla`` (built by ``make xla-runtime``), a
#: name under ``[runtimes]`` in config, or ``default`` (the runtime tutor was started with)
RuntimeName = Annotated[
    str,
    AfterValidator(_known_runtime),
    Field(json_schema_extra={"examples": ["xla", "default"]}),
]


# --- params -------------------------------------------------------------------------------


class IntParam(Strict):
    """An integer drawn uniformly from an inclusive range: ``{int: [2, 5]}``."""

    int_: tuple[int, int] = Field(alias="int", description="inclusive [low, high]")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


#: a value a param takes: a number or a string (code a drill's text is rendered with)
ParamValue = bool | int | float | str
#: the params drawn for one attempt (or one trial of a code check): name -> value
Params = dict[str, ParamValue]


class ChoiceParam(Strict):
    """A value drawn from a list: ``{choice: [3, 4, 6]}``."""

    choice: list[ParamValue] = Field(description="the values to draw from")


Param = IntParam | ChoiceParam


# --- drill kinds ----------------------------------------------------------------------------


class DrillBase(Strict):
    """Fields every drill kind shares."""

    id: str = Field(pattern=ID_PATTERN, description="unique in the pack")
    title: str | None = Field(default=None, description="short title; defaults to the id")
    prompt: str = Field(description="Markdown; {name} is replaced by drawn params")
    chapter: int | None = Field(default=None, ge=1, le=12, description="overrides the pack's")
    params: dict[str, Param] = Field(default_factory=dict, description="drawn per attempt")
    setup: str = Field(default="", description="code run in the sandbox before the drill")
    harness: str = Field(
        default="",
        description="code run before `setup` that the learner is not shown: the check's "
        "plumbing (a launcher of ranks, helpers that compile or explain beside the answer); "
        "{name} is filled in as in setup",
    )
    uses: list[str] = Field(
        default_factory=list,
        description="ids of earlier code or fix drills of this pack whose reference's functions "
        "this drill may call (they are defined before its setup; their bodies are not the "
        "answer's code)",
    )
    hints: list[str] = Field(default_factory=list, description="revealed one at a time")
    explain: str = Field(default="", description="shown once the drill is solved")
    lab: str | None = Field(default=None, description="a live lab to open on the setup")
    quiz: bool = Field(default=False, description="part of the chapter's quiz")
    tags: list[str] = Field(default_factory=list, description="free-form topics")
    limits: LimitsName | None = Field(
        default=None, description="sandbox limits profile: compile for torch.compile"
    )
    regression_seeds: list[Annotated[int, Field(ge=0)]] = Field(
        default_factory=list,
        description="seeds that once failed: `tutor pack check` always tries them too",
    )
    runtime: RuntimeName | None = Field(
        default=None,
        description="sandbox runtime to grade on: xla (make xla-runtime), a [runtimes] name "
        "from config, or default",
    )

    #: the code the pack gives before this drill's own setup: the pack's ``setup`` and the
    #: references of the drills in ``uses`` (set when the pack is validated)
    _given: str = PrivateAttr(default="")
    #: the ids of the drills whose references are given, in file order (``uses``, transitively)
    _used: tuple[str, ...] = PrivateAttr(default=())
    #: the pack's ``setup`` (part of ``_given``, shown to the learner)
    _shared: str = PrivateAttr(default="")
    #: the signatures of the functions the used references define (shown; bodies are not)
    _callable: tuple[str, ...] = PrivateAttr(default=())

    @property
    def shared_setup(self) -> str:
        """The pack's ``setup``, run before this drill's own."""
        return self._shared

    @property
    def given_functions(self) -> tuple[str, ...]:
        """``("ones(i)", "triu(j)")``: the functions of the drills it uses, which the answer may
        call (their bodies are not shown to the learner)."""
        return self._callable

    @property
    def used_drills(self) -> tuple[str, ...]:
        """The ids of the earlier drills whose functions this drill may call: those in ``uses``
        and those they use, in file order."""
        return self._used

    @property
    def display_title(self) -> str:
        return self.title or self.id.replace("-", " ").capitalize()

    def setup_place(self, line: int) -> tuple[tuple[str, ...], int]:
        """Where line ``line`` of ``setup_code`` is written: ``(("setup",), n)`` for line n of
        the drill's own setup, ``(("harness",), n)`` for line n of its harness,
        ``(("given",), line)`` for the code the pack gives."""
        given = self._given.count("\n") + 1 if self._given else 0
        if line <= given:
            return (("given",), line)
        harness = self.harness.rstrip("\n")
        lines = harness.count("\n") + 1 if harness.strip() else 0
        if line <= given + lines:
            return (("harness",), line - given)
        return (("setup",), line - given - lines)

    def setup_code(self, params: Params) -> str:
        """Everything run before an answer or ``ask``: the code the pack gives (its ``setup``,
        the references of the drills in ``uses``), then this drill's ``harness`` and ``setup``
        with ``params`` filled in."""
        parts = [self._given] if self._given else []
        if self.harness.strip():
            parts.append(render(self.harness, params).rstrip("\n"))
        own = render(self.setup, params)
        if own.strip() or not parts:
            parts.append(own)
        return "\n".join(parts)

    @property
    def profile(self) -> str:
        """The limits profile its runs get: ``limits``, else its runtime's (``compile`` on
        xla), else ``default``."""
        return self.limits or runtime_limits(self.runtime) or "default"


#: the absolute tolerance of a predict drill's float truths when it names none
ATOL = 1e-6


class PredictWrong(Strict):
    """A likely mistake of a predict drill: the value it gives, and what it means."""

    ask: str = Field(
        description="expression computed after `ask`, with the same setup and params: the "
        "value a learner who makes this mistake answers"
    )
    feedback: str = Field(
        description="shown when the answer matches this value (and not the truth): what the "
        "mistake is, without the right answer"
    )


#: a unit a predict answer may carry, by any of its spellings (``tutor.content.units``)
Unit = Annotated[
    str,
    AfterValidator(known_unit),
    Field(json_schema_extra={"examples": ["MiB", "ms", "s", "%", "B"]}),
]


class PredictDrill(DrillBase):
    """Predict what torch returns (or raises) for ``ask`` after ``setup``."""

    kind: Literal["predict"]
    ask: str = Field(description="expression whose value (or exception) is the truth")
    tolerance: float = Field(default=1e-4, ge=0, description="relative tolerance for floats")
    atol: float = Field(
        default=ATOL,
        ge=0,
        description=f"absolute tolerance for floats (default {ATOL:g}): an answer this close "
        "to a float truth is right, so 0 is right for float round-off of 0",
    )
    unit: Unit | None = Field(
        default=None,
        description="the unit the truth is in (MiB, ms, %, ...): an answer in another unit is "
        "wrong, with that reason; default: the one unit the prompt names, if any",
    )
    wrong: list[PredictWrong] = Field(
        default_factory=list,
        description="likely mistakes: each `ask` is computed beside the truth, and a learner "
        "whose answer matches its value is shown its `feedback`",
    )
    lenient: bool = Field(
        default=True,
        description="accept looser forms than torch's own (a number for a one-element Size, "
        "a list for a tuple, yes/no for a bool); false when the form is the point",
    )


#: a line of an order drill: its full text, or its number (from 1) in ``lines`` (what each
#: names, and that there are two or more, is checked with the lines: ``order_rules``)
LineRef = Annotated[Any, WithJsonSchema({"type": ["integer", "string"]})]
#: lines that must come in this order (each before the next): ``[1, 4]``, ``[a, b, c]``
Chain = list[LineRef]


class OrderRule(Strict):
    """A constraint with its own feedback: ``{order: [1, 4], why: ...}``."""

    order: Chain = Field(description="lines that must come in this order, each before the next")
    why: str = Field(
        default="",
        description="shown when an answer breaks this constraint (instead of the plain "
        "'`b` comes before `a`' feedback)",
    )


def _constraint_form(value: Any) -> str:
    return "rule" if isinstance(value, dict) else "chain"


#: a constraint: a list of lines, or a mapping with ``order`` and ``why``
Constraint = Annotated[
    Annotated[Chain, Tag("chain")] | Annotated[OrderRule, Tag("rule")],
    Discriminator(_constraint_form),
]


class OrderRun(Strict):
    """How an order drill is checked by running the learner's order of its own lines."""

    assert_: str = Field(
        alias="assert",
        description="code run after `setup` and the drill's lines in the learner's order; the "
        "order is right when it does not raise (an AssertionError's message is the feedback). "
        "It reads `order` (the lines' numbers, from 1, in the learner's order) and `lines` (their "
        "texts, in the drill's order); while each line runs, `line` holds its number",
    )

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class OrderDrill(DrillBase):
    """Put lines in order; ``lines`` is a correct order (the one shown as the answer)."""

    kind: Literal["order"]
    lines: list[str] = Field(min_length=2, description="a correct order, shown as the answer")
    accept: list[list[str]] = Field(
        default_factory=list, description="other complete orders that are right too"
    )
    constraints: list[Constraint] = Field(
        default_factory=list,
        description="any order that keeps every constraint is right: each is a list of lines "
        "(full text, or number from 1) that must come in that order, or {order: [...], why: ...}",
    )
    run: OrderRun | None = Field(
        default=None,
        description="run the learner's order of the lines after `setup`, then `run.assert`: "
        "any order it passes is right",
    )

    @property
    def rules(self) -> list[OrderRule]:
        """Every constraint as an :class:`OrderRule` (a plain list has no ``why``)."""
        return [c if isinstance(c, OrderRule) else OrderRule(order=c) for c in self.constraints]

    @model_validator(mode="after")
    def _accept_permutes_lines(self) -> OrderDrill:
        for order in self.accept:
            if sorted(order) != sorted(self.lines):
                raise ValueError("each order in `accept` must use exactly the drill's lines")
        return self


class Choice(Strict):
    """One answer of a choice drill."""

    answer: str
    correct: bool = False
    why: str = Field(default="", description="shown when this wrong answer is picked")


class ChoiceDrill(DrillBase):
    """Pick the one correct answer."""

    kind: Literal["choice"]
    choices: list[Choice] = Field(min_length=2)

    @model_validator(mode="after")
    def _one_correct(self) -> ChoiceDrill:
        n = sum(c.correct for c in self.choices)
        if n != 1:
            raise ValueError(f"choices: exactly one answer must be correct, found {n}")
        return self


#: a value bound: a number, or an expression of params and ``value`` args such as ``"j - 1"``
Bound = int | float | str

INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "int", "long", "short")
FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64", "float", "double", "half")


def dtype_kind(dtype: str) -> str:
    """``int``, ``float``, ``bool`` or ``other`` for a dtype name (torch-free)."""
    name = dtype.removeprefix("torch.")
    if name in INT_DTYPES:
        return "int"
    if name in FLOAT_DTYPES:
        return "float"
    return "bool" if name == "bool" else "other"


class TensorArg(Strict):
    """A random tensor argument: ``{tensor: [n, 3], dtype: float32}``; names are params.

    The values may be constrained: ``range`` (inclusive; ends may name params), ``sorted``,
    ``unique``, a fixed ``sum`` (integers) or a ``density`` of True values (bools).
    """

    tensor: list[int | str] = Field(description="shape; a name refers to a param")
    dtype: str = "float32"
    requires_grad: bool = False
    range: tuple[Bound, Bound] | None = Field(
        default=None,
        description="inclusive [low, high] of the values; an end may be a param or an "
        "expression of params such as `j - 1`",
    )
    sorted: bool = Field(
        default=False, description="values ascending along the last dim (not for bool tensors)"
    )
    unique: bool = Field(
        default=False,
        description="integers: no value repeated along the last dim; the range must hold enough "
        "values, and `sum` cannot be asked too",
    )
    sum: int | str | None = Field(
        default=None,
        description="integer tensors only: every row (last dim) adds up to this; a number or an "
        "expression of params; values stay in `range`",
    )
    density: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="bool tensors only: the exact fraction of True values, 0 to 1",
    )


class ValueArg(Strict):
    """A literal argument: ``{value: 3}``; a string ``{name}`` is replaced by a param."""

    value: Any


Arg = TensorArg | ValueArg


class Compare(Strict):
    """How a learner's result is compared with the reference's (``check.compare``)."""

    shape: Literal["exact", "broadcast"] = Field(
        default="exact",
        description="exact, or broadcast: a result that broadcasts to the "
        "reference's shape is compared as if expanded",
    )
    dtype: Literal["exact", "numeric"] = Field(
        default="exact", description="exact, or numeric: any numeric dtype, values compared"
    )
    order: Literal["exact", "sorted", "set"] = Field(
        default="exact",
        description="exact; sorted: the same values in any order; set: the same distinct values",
    )

    def is_default(self) -> bool:
        return self.shape == "exact" and self.dtype == "exact" and self.order == "exact"


class Edge(Strict):
    """An ``edges`` entry with its own smallest size: ``{param: n, min: 1}`` tries ``n`` at 1 and 2."""

    param: str = Field(description="one of the check's own params")
    min: int = Field(default=0, ge=0, description="the smallest size tried; min + 1 is tried too")


class Check(Strict):
    """How a code/fix answer is graded: compare ``call`` with the reference, or run ``assert``."""

    call: str | None = Field(default=None, description="function compared with the reference")
    args: dict[str, Arg] = Field(default_factory=dict, description="arguments, by name")
    params: dict[str, Param] = Field(default_factory=dict, description="drawn per trial")
    trials: int = Field(default=10, ge=1, le=200)
    assert_: str | None = Field(default=None, alias="assert", description="code run after")
    tolerance: float = Field(default=1e-5, ge=0, description="allclose rtol/atol")
    inputs_unchanged: bool = Field(
        default=False,
        description="fail an answer whose `call` changes its inputs (values, requires_grad, .grad)",
    )
    cases: list[dict[str, Any]] = Field(
        default_factory=list,
        description="literal inputs tried before the random trials: arg name -> value "
        "(a nested list for a tensor arg)",
    )
    distinct: list[str] = Field(
        default_factory=list,
        description="at least two of the check's own params, drawn all different in each "
        "random trial",
    )
    edges: list[str | Edge] = Field(
        default_factory=list,
        description="the check's own params tried at their smallest sizes: a name (tried at 0 "
        "and 1) or `{param: n, min: 1}` (tried at min and min + 1)",
    )
    compare: Compare = Field(default_factory=Compare, description="how results are compared")
    self_check: str = Field(
        default="",
        description="why this assert may compare the answer's names with values computed from "
        "the answer's own names (a round trip, a determinism check); without it pack check "
        "reports such a comparison",
    )
    variants: int = Field(
        default=1,
        ge=1,
        le=6,
        description="how many variants the answer is graded on: the learner's own and "
        "`variants - 1` more drawn with other params (the answer as written, under their setup "
        "and check), so an answer that hard-codes its own variant's values fails",
    )

    @property
    def edge_sizes(self) -> list[tuple[str, int]]:
        """Every edge trial as (param, size), in order: two sizes per ``edges`` entry."""
        out = []
        for edge in self.edges:
            name, low = (edge, 0) if isinstance(edge, str) else (edge.param, edge.min)
            out += [(name, low), (name, low + 1)]
        return out

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _call_or_assert(self) -> Check:
        if not self.call and not self.assert_:
            raise ValueError("check needs `call` or `assert`")
        if self.cases and not self.call:
            raise ValueError("`cases` needs `call`: they are inputs of the called function")
        return self


class WrongAnswer(Strict):
    """A wrong answer with the feedback shown to a learner whose answer fails the same way."""

    code: str = Field(description="the wrong answer; it must fail the check")
    feedback: str = Field(
        default="", description="shown when an answer gives the same outputs on the same trials"
    )


class CodeDrill(DrillBase):
    """Write code from a starter; graded by ``check`` against ``reference``."""

    kind: Literal["code"]
    starter: str
    reference: str
    check: Check
    forbid: list[str] = Field(
        default_factory=list,
        description="keywords (for, while, ...), builtins and dotted names refused",
    )
    allow: list[str] = Field(
        default_factory=list,
        description="the only torch functions, tensor methods and Python builtins the answer "
        "may use (operators, indexing, .shape, len, isinstance, print, slice and setup's "
        "functions always allowed); full names under torch: `torch.where`, `torch.Tensor.sum`; "
        "builtins by bare name: `range`",
    )
    max_lines: int | None = Field(
        default=None,
        ge=1,
        description="most lines of code in the answer (blank lines, comments, docstrings, "
        "imports and def lines not counted)",
    )
    wrong: list[str | WrongAnswer] = Field(
        default_factory=list, description="answers that must fail, optionally with feedback"
    )

    @property
    def wrong_answers(self) -> list[WrongAnswer]:
        """Every ``wrong`` entry as a :class:`WrongAnswer` (a plain string has no feedback)."""
        return [WrongAnswer(code=w) if isinstance(w, str) else w for w in self.wrong]

    @property
    def has_rules(self) -> bool:
        """Whether the answer is held to rules (forbid, allow, max_lines): read as a whitelist."""
        return bool(self.forbid or self.allow or self.max_lines is not None)


class FixDrill(CodeDrill):
    """Repair the broken ``starter``; graded by ``check``."""

    # pydantic's tagged union needs the narrower tag; mypy refuses to narrow an attribute
    kind: Literal["fix"]  # type: ignore[assignment]


Drill = Annotated[
    PredictDrill | OrderDrill | ChoiceDrill | CodeDrill | FixDrill, Field(discriminator="kind")
]


class Pack(Strict):
    """One YAML file of drills."""

    pack: str = Field(pattern=ID_PATTERN, description="pack id, unique among loaded packs")
    title: str
    chapter: int = Field(ge=1, le=12, description="default chapter of the pack's drills")
    torch: str | None = Field(default=None, description="torch versions, e.g. '>=2.4'")
    description: str = ""
    limits: LimitsName | None = Field(
        default=None, description="limits profile of every drill that names none"
    )
    regression_seeds: list[Annotated[int, Field(ge=0)]] = Field(
        default_factory=list,
        description="seeds that once failed, tried for every drill of the pack",
    )
    runtime: RuntimeName | None = Field(
        default=None, description="sandbox runtime of every drill that names none, e.g. xla"
    )
    setup: str = Field(
        default="",
        description="code run before every drill's own setup (helpers the drills share); not "
        "filled in with params",
    )
    drills: list[Drill] = Field(min_length=1)

    #: where the pack was loaded from (not part of the file)
    source: Path | None = Field(default=None, exclude=True)
    #: what ``tutor pack check`` warns about in the file (``Problem``s that do not refuse it)
    _warnings: list[Any] = PrivateAttr(default_factory=list)

    @property
    def warnings(self) -> list[Any]:
        """The problems of the file that do not refuse it (``tutor pack check`` says them)."""
        return self._warnings

    @model_validator(mode="before")
    @classmethod
    def _drills_inherit(cls, data: Any) -> Any:
        """A drill without ``limits`` (or ``runtime``) gets the pack's."""
        if not isinstance(data, dict) or not isinstance(data.get("drills"), list):
            return data
        for key in ("limits", "runtime"):
            if data.get(key):
                drills = [
                    {**d, key: data[key]} if isinstance(d, dict) and key not in d else d
                    for d in data["drills"]
                ]
                data = {**data, "drills": drills}
        return data

    @model_validator(mode="after")
    def _give_code(self) -> Pack:
        """Give each drill the code the pack runs before its own setup (``setup_code``).

        The references of the drills a drill ``uses`` (and of those they use) come in file order
        after the pack's ``setup``; an id that is unknown, later or not a code drill is left out
        here and reported by ``tutor pack check`` (``pack_rules``)."""
        index = {d.id: i for i, d in enumerate(self.drills)}
        closure: dict[str, set[int]] = {}
        for i, drill in enumerate(self.drills):
            used: set[int] = set()
            for name in drill.uses:
                j = index.get(name)
                if j is not None and j < i and isinstance(self.drills[j], CodeDrill):
                    used |= {j, *closure.get(name, set())}
            closure[drill.id] = used
            drill._used = tuple(self.drills[j].id for j in sorted(used))
            drill._shared = self.setup
            given = [d for j in sorted(used) if isinstance(d := self.drills[j], CodeDrill)]
            drill._callable = tuple(sig for d in given for sig in signatures(d.reference))
            parts = [self.setup] if self.setup.strip() else []
            parts += [d.reference for d in given]
            drill._given = "\n".join(p.rstrip("\n") for p in parts)
        return self

    def seeds_of(self, drill: DrillBase) -> list[int]:
        """The regression seeds of ``drill``: its own and the pack's, each once, sorted."""
        return sorted({*self.regression_seeds, *drill.regression_seeds})

    def chapter_of(self, drill: DrillBase) -> int:
        return drill.chapter or self.chapter

    def full_id(self, drill: DrillBase) -> str:
        return f"{self.pack}/{drill.id}"


# --- chapters and lessons -------------------------------------------------------------------


class Chapter(Strict):
    """One of the twelve chapters of the course."""

    number: int = Field(ge=1, le=12)
    title: str
    thesis: str
    part: Literal["i", "ii"]
    labs: list[str] = Field(default_factory=list)


class Snippet(Strict):
    """A runnable code block of a lesson and the output recorded when it last ran."""

    code: str
    output: str | None = Field(default=None, description="None until recorded")
    line: int = Field(description="1-based line of the code fence in the lesson file")
    limits: LimitsName | None = Field(default=None, description="from `limits=NAME` in the info")
    runtime: RuntimeName | None = Field(
        default=None, description="from `runtime=NAME` in the info, else the front matter's"
    )


class Lesson(Strict):
    """A chapter's lesson: Markdown with YAML front matter."""

    chapter: int = Field(ge=1, le=12)
    title: str
    thesis: str
    labs: list[str] = Field(default_factory=list)
    torch: str | None = Field(default=None, description="torch version that recorded outputs")
    limits: LimitsName | None = Field(
        default=None, description="limits profile of every snippet that names none"
    )
    runtime: RuntimeName | None = Field(
        default=None, description="sandbox runtime of every snippet that names none, e.g. xla"
    )
    body: str = Field(default="", description="the Markdown after the front matter")
    snippets: list[Snippet] = Field(default_factory=list)
    source: Path | None = Field(default=None, exclude=True)
