"""The data that crosses into grading, as pydantic models (torch-free).

Two borders are checked here:

- probe -> engine: what the grading probes return to the UI process (``PredictData`` from
  ``grade_predict``, ``OrderData`` from ``grade_order``, ``CodeData`` from ``grade_code``).
  The engine validates it before judging; data that does not fit is a ``sandbox_error``
  verdict with the reason, never a traceback.
- learner -> judge: what the learner's process sends to the judge process inside a code
  grading (``Ran``, ``Reply``, ``Ended``, carrying ``Wire`` values). Only data crosses: tensors as
  dtype/shape/strides/bytes, numbers, strings, None, containers of them, and opaque handles
  to objects that stay in the learner's process. The judge validates every message before it
  rebuilds a single value from it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

#: namespace -> the tensor methods that enter it (forbidding the namespace forbids them);
#: read by the reading of an answer (``tutor.probes.reading``) and the runtime trace (``forbid_trace``)
METHODS_INTO = {"torch.autograd": ("backward",)}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


# ---------------------------------------------------------------- probe -> engine


class ErrorInfo(_Open):
    """An exception as data: its type name, message and the line in the code it came from."""

    type: str
    message: str = ""
    line: int | None = None


class Context(_Strict):
    """The tensor a predict drill's ``x.stride()``/``x.shape`` ask was taken of."""

    shape: list[int]
    stride: list[int]
    contiguous: bool


class Tagged(_Open):
    """A tagged value (``tutor/grading/truth.py`` documents the tags)."""

    type: str


class MistakeValue(_Strict):
    """What one likely mistake of a predict drill gives (a value or the exception raised)."""

    outcome: Literal["value"]
    value: Tagged


class MistakeAuthoring(_Strict):
    """A likely mistake's expression is broken (a NameError, SyntaxError or ImportError)."""

    outcome: Literal["authoring"]
    error: ErrorInfo


Mistake = Annotated[MistakeValue | MistakeAuthoring, Field(discriminator="outcome")]


class PredictValue(_Strict):
    """The truth of a predict drill: what torch returned, or the exception it raised, and what
    each of the drill's likely mistakes (its ``wrong`` entries, in order) gives."""

    outcome: Literal["value"]
    value: Tagged
    context: Context | None = None
    wrong: list[Mistake] = Field(default_factory=list)


class PredictAuthoring(_Strict):
    """The drill's own ``setup`` or ``ask`` is broken."""

    outcome: Literal["authoring"]
    field: Literal["setup", "ask"]
    error: ErrorInfo


PredictData = Annotated[PredictValue | PredictAuthoring, Field(discriminator="outcome")]


class OrderPassed(_Strict):
    """The learner's order ran and the drill's ``assert`` passed over it."""

    outcome: Literal["passed"]


class OrderFailed(_Strict):
    """The drill's ``assert`` raised an AssertionError over the learner's order."""

    outcome: Literal["failed"]
    message: str = ""


class OrderRaised(_Strict):
    """A line raised when run in the learner's order."""

    outcome: Literal["raised"]
    line: int = Field(ge=1, description="the line's number in the drill's lines")
    position: int = Field(ge=1, description="where the learner's order put it")
    error: ErrorInfo


class OrderAuthoring(_Strict):
    """The order drill's own ``setup``, lines or ``assert`` is broken."""

    outcome: Literal["authoring"]
    field: Literal["setup", "lines", "check"]
    error: ErrorInfo


OrderData = Annotated[
    OrderPassed | OrderFailed | OrderRaised | OrderAuthoring, Field(discriminator="outcome")
]


class Diff(_Open):
    """What differs between the reference's output and the learner's (``grade_compare.diff``)."""

    what: str
    message: str
    path: str = ""


class Failure(_Strict):
    """The smallest failing trial of a code check."""

    trial: int
    seed: int
    kind: str = Field(default="random", description="case, edge or random")
    params: dict[str, Any]
    inputs: dict[str, Any]
    size: int
    expected: Tagged
    raised: ErrorInfo | None = None
    diff: Diff | None = None
    got: Tagged | None = None
    notes: list[str] = Field(default_factory=list)


class AssertOutcome(_Strict):
    """How the drill's ``assert`` stage ended."""

    ok: StrictBool
    type: str | None = None
    message: str | None = None
    line: int | None = None


class ExitInfo(_Strict):
    """How the learner's process ended when it sent no result: an exit code or a signal."""

    code: int | None = None
    signal: str | None = None
    note: str = ""


CodeStage = Literal[
    "done",
    "setup_error",
    "reference_error",
    "inputs_error",
    "answer_error",
    "answer_exit",
    "learner_data",
    "refused",
]


class Refusal(_Strict):
    """One thing the judge's reading of the answer refuses (``tutor.probes.reading_judge``)."""

    line: StrictInt
    written: str
    why: str
    rule: str
    name: str


class CodeData(_Strict):
    """The judge's findings on one code answer (``grade_code.check_code``).

    ``answer_exit``: the learner's process ended without sending its results (``exit`` says
    how); ``learner_data``: what it sent was not valid data (``error.message`` says why);
    ``refused``: the judge's reading of the answer refused it (``refusals``), and nothing the
    learner's process sent was looked at.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    stage: CodeStage
    error: ErrorInfo | None = None
    forbidden: list[str] = Field(default_factory=list)
    trials: StrictInt = 0
    passed: StrictInt = 0
    failure: Failure | None = None
    matched: StrictInt | None = Field(default=None, description="the wrong answer it behaves like")
    assert_: AssertOutcome | None = Field(default=None, alias="assert")
    notes: list[str] = Field(default_factory=list)
    exit: ExitInfo | None = None
    refusals: list[Refusal] = Field(default_factory=list)
    timings: dict[str, float] = Field(
        default_factory=dict,
        description="ms: fork, reference, learner (until its results arrived), compare, assert",
    )


# ---------------------------------------------------------------- learner <-> judge


class WNone(_Strict):
    t: Literal["none"]


class WBool(_Strict):
    t: Literal["bool"]
    v: StrictBool


class WInt(_Strict):
    t: Literal["int"]
    v: StrictInt


class WFloat(_Strict):
    t: Literal["float"]
    v: float | Literal["nan", "inf", "-inf"]


class WComplex(_Strict):
    t: Literal["complex"]
    re: float | Literal["nan", "inf", "-inf"]
    im: float | Literal["nan", "inf", "-inf"]


class WStr(_Strict):
    t: Literal["str"]
    v: StrictStr


class WSize(_Strict):
    t: Literal["size"]
    items: list[StrictInt]


class WDtype(_Strict):
    t: Literal["dtype"]
    name: StrictStr


class WDevice(_Strict):
    t: Literal["device"]
    name: StrictStr


class WTensor(_Strict):
    """A tensor as data: the bytes of its contiguous values (base64) and its metadata."""

    t: Literal["tensor"]
    dtype: StrictStr
    shape: list[Annotated[int, Field(ge=0)]]
    stride: list[StrictInt] | None = None
    offset: StrictInt = 0
    device: StrictStr = "cpu"
    requires_grad: StrictBool = False
    is_leaf: StrictBool = True
    data: StrictStr | None = None
    grad: WTensor | None = None


class WTuple(_Strict):
    t: Literal["tuple"]
    items: list[Wire]


class WList(_Strict):
    t: Literal["list"]
    items: list[Wire]


class WDict(_Strict):
    t: Literal["dict"]
    items: list[tuple[Wire, Wire]]


class WHandle(_Strict):
    """An object that stays in the learner's process (a function, a module, a generator)."""

    t: Literal["handle"]
    id: StrictInt
    pytype: StrictStr
    module: StrictStr = ""
    qualname: StrictStr = ""
    name: StrictStr = Field(default="", description="a module's own name (``io``, ``math``)")


class WRef(_Strict):
    """The judge handing a handle back to the learner's process (judge -> learner only)."""

    t: Literal["ref"]
    id: StrictInt


class WUnsupported(_Strict):
    """A value that is not plain data, e.g. ``a subclass of Tensor (MyTensor)``."""

    t: Literal["unsupported"]
    what: StrictStr


Wire = Annotated[
    WNone
    | WBool
    | WInt
    | WFloat
    | WComplex
    | WStr
    | WSize
    | WDtype
    | WDevice
    | WTensor
    | WTuple
    | WList
    | WDict
    | WHandle
    | WRef
    | WUnsupported,
    Field(discriminator="t"),
]


class Output(_Strict):
    """One trial's outcome in the learner's process: the value returned or the exception."""

    value: Wire | None = None
    raised: ErrorInfo | None = None
    inputs: list[Wire] | None = Field(
        default=None, description="the arguments after the call (checks with inputs_unchanged)"
    )


class Ran(_Strict):
    """Sent once, after the learner's code and its calls on the trial inputs ran."""

    op: Literal["ran"]
    stage: Literal["done", "setup_error", "answer_error"]
    error: ErrorInfo | None = None
    outputs: list[Output] = Field(default_factory=list)
    names: Wire | None = Field(default=None, description="the names the assert stage reads")
    forbidden: list[StrictStr] = Field(default_factory=list, description="traced so far")


class Reply(_Strict):
    """The answer to one request of the judge's ``assert`` stage."""

    op: Literal["reply"]
    value: Wire | None = None
    error: ErrorInfo | None = None
    stop: StrictBool = False
    forbidden: list[StrictStr] = Field(default_factory=list, description="traced so far")


class Ended(_Strict):
    """The last message: the forbidden torch calls the learner's trace saw."""

    op: Literal["end"]
    forbidden: list[StrictStr] = Field(default_factory=list)


LearnerMessage = Annotated[Ran | Reply | Ended, Field(discriminator="op")]

for _model in (WTensor, WTuple, WList, WDict, Output, Ran, Reply):
    _model.model_rebuild()
