"""What a dotted name refers to: the questions the reading asks, and a torch-free answerer.

The reading (``tutor.probes.reading``) asks a ``Resolver`` about dotted names it finds in an
answer: is ``torch.optim.SGD`` a module, a class, a function or a plain value; which module does
``torch.storage.np`` really reach; is ``sum`` an attribute of a tensor. Two resolvers answer:

- :class:`StaticResolver`, here, torch-free, for the UI's pre-pass: it knows a few facts that
  hold in every torch this project supports, Python's standard library names, and nothing else;
  for the rest it answers UNKNOWN (and the reading does not refuse on that point);
- ``reading_torch.TorchResolver``, in the judge: it walks the judge's real torch.

Every fact this module states is checked against the torch resolver by the tests, so the
pre-pass never refuses what the judge would pass.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass
from typing import Protocol

from tutor.probes.reading_lists import words


class Kind(enum.Enum):
    """What a dotted name refers to."""

    MODULE = "module"
    CLASS = "class"
    CALLABLE = "callable"
    VALUE = "value"
    MISSING = "missing"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Found:
    """A dotted name resolved: its kind, its canonical name (a chain that lands in another
    module is named from that module: ``torch.storage.np`` -> ``numpy``) and, for a class,
    whether it is ``torch.Tensor`` or a subclass of it (None: not known)."""

    kind: Kind
    name: str
    tensor: bool | None = None


class Resolver(Protocol):
    """Answers the reading's questions about dotted names."""

    def find(self, dotted: str) -> Found:
        """What ``dotted`` refers to (UNKNOWN when it cannot tell)."""
        ...

    def tensor_attribute(self, name: str) -> bool | None:
        """Whether ``torch.Tensor`` has an attribute ``name`` (None: not known)."""
        ...

    def same(self, a: str, b: str) -> bool:
        """Whether two dotted names are the same object (False when it cannot tell)."""
        ...


_TORCH_MODULES = words(
    "torch torch.nn torch.nn.functional torch.nn.init torch.nn.utils torch.optim "
    "torch.optim.lr_scheduler torch.utils torch.utils.data torch.linalg torch.fft "
    "torch.special torch.autograd torch.distributed torch.cuda torch.backends torch.func "
    "torch.export torch.fx torch.jit torch.library torch.overrides torch.multiprocessing "
    "torch.testing torch.profiler torch.amp torch.random torch.distributions torch.sparse "
    "torch.storage torch.serialization torch.hub torch.compiler torch.utils.benchmark "
    "torch.utils.checkpoint"
)
_CLASSES = {
    "torch.Tensor": True, "torch.nn.Parameter": True, "torch.nn.Module": False,
    "torch.nn.Linear": False, "torch.nn.Sequential": False, "torch.nn.ModuleList": False,
    "torch.optim.Optimizer": False, "torch.optim.SGD": False, "torch.optim.Adam": False,
    "torch.optim.AdamW": False, "torch.utils.data.Dataset": False,
    "torch.utils.data.IterableDataset": False, "torch.utils.data.DataLoader": False,
    "torch.utils.data.TensorDataset": False, "torch.Generator": False, "torch.Size": False,
    "torch.autograd.Function": False, "torch.dtype": False, "torch.device": False,
}  # fmt: skip
_VALUES = frozenset(
    f"torch.{n}"
    for n in words(
        "float32 float float64 double float16 half bfloat16 int8 int16 short int32 int int64 "
        "long uint8 bool complex64 cfloat complex128 cdouble pi e inf nan"
    )
)
#: tensor methods and properties present in every torch this project supports
TENSOR_ATTRIBUTES = words(
    "abs absolute add addmm all amax amin angle any argmax argmin argsort argwhere backward "
    "bernoulli_ bfloat16 bincount bitwise_and bitwise_not bitwise_or bitwise_xor bool "
    "broadcast_to byte ceil char chunk clamp clamp_ clip clone contiguous copy_ cos cosh "
    "count_nonzero cpu cuda cummax cummin cumprod cumsum data data_ptr deg2rad detach "
    "detach_ diag diag_embed diagonal diff dim div div_ dot double element_size eq equal "
    "erf exp exp_ expand expand_as exponential_ fill_ fill_diagonal_ fix flatten flip "
    "fliplr flipud float float_power floor floor_divide fmod frac gather ge geometric_ ger "
    "grad grad_fn gt half index_add index_add_ index_copy index_fill index_put index_put_ "
    "index_select int is_contiguous is_floating_point is_leaf isclose isfinite isinf isnan "
    "item kthvalue le lerp log log10 log1p log2 log_softmax logical_and logical_not "
    "logical_or logical_xor logsumexp long lt masked_fill masked_fill_ masked_scatter "
    "masked_select matmul max maximum mean median min minimum mm mode moveaxis movedim "
    "msort mT mul mul_ multinomial mv nan_to_num nanmean nansum narrow ne neg negative "
    "nelement new_empty new_full new_ones new_tensor new_zeros nonzero norm normal_ numel "
    "numpy outer permute pow prod put_ quantile rad2deg random_ ravel reciprocal "
    "register_hook relu remainder renorm repeat repeat_interleave requires_grad "
    "requires_grad_ reshape reshape_as resize_ retain_grad roll rot90 round rsqrt scatter "
    "scatter_ scatter_add scatter_add_ scatter_reduce select short sigmoid sign signbit sin "
    "sinh size slice_scatter softmax sort split sqrt square squeeze std stride sub sub_ sum "
    "swapaxes t T take take_along_dim tan tanh tensor_split tile to tolist topk trace "
    "transpose tril triu true_divide trunc type type_as unbind unflatten unfold uniform_ "
    "unique unique_consecutive unsqueeze var view view_as where zero_ H mH apply_ map_ "
    "map2_ storage_offset untyped_storage shape dtype device ndim"
)


#: the tensor attributes above that are properties, not methods
TENSOR_PROPERTIES = words(
    "data grad grad_fn is_leaf requires_grad T mT H mH shape dtype device ndim"
)


def static_facts() -> dict[str, Found]:
    """Every fact :class:`StaticResolver` states about a name under torch (for the tests)."""
    facts = {f"torch.Tensor.{a}": Found(Kind.VALUE if a in TENSOR_PROPERTIES else Kind.CALLABLE,
                                        f"torch.Tensor.{a}") for a in TENSOR_ATTRIBUTES}  # fmt: skip
    facts |= {m: Found(Kind.MODULE, m) for m in _TORCH_MODULES}
    facts |= {c: Found(Kind.CLASS, c, t) for c, t in _CLASSES.items()}
    facts |= {v: Found(Kind.VALUE, v) for v in _VALUES}
    return facts


class StaticResolver:
    """The torch-free resolver: fixed facts about torch, the standard library's module names,
    and the modules ``import`` statements name (``modules``); UNKNOWN for everything else."""

    def __init__(self, modules: frozenset[str] = frozenset()) -> None:
        self._facts = static_facts()
        self._modules = modules

    def find(self, dotted: str) -> Found:
        """What ``dotted`` refers to, when one of the fixed facts says so."""
        fact = self._facts.get(dotted)
        if fact is not None:
            return fact
        if dotted in self._modules or dotted in sys.stdlib_module_names:
            return Found(Kind.MODULE, dotted)
        return Found(Kind.UNKNOWN, dotted)

    def tensor_attribute(self, name: str) -> bool | None:
        """True for the tensor attributes every supported torch has; None otherwise."""
        return True if name in TENSOR_ATTRIBUTES else None

    def same(self, a: str, b: str) -> bool:
        """Only a name is the same as itself, as far as this resolver can tell."""
        return a == b
