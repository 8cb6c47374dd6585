"""The fixed name lists the reading of an answer uses (torch-free data, no logic).

Dotted names here are canonical: what a chain such as ``torch.storage.np`` reaches is named by
the module it lands in (``numpy``), see ``reading_resolve``.
"""

from __future__ import annotations

import builtins

from tutor.probes.data_grading import METHODS_INTO

__all__ = ["METHODS_INTO"]  # and the lists below


def words(text: str) -> frozenset[str]:
    """The space-separated words of ``text`` (how the lists below are written)."""
    return frozenset(text.split())


#: names every answer runs with before its first line (``fresh_namespace`` in the runtime)
GIVEN = {"torch": "torch", "nn": "torch.nn", "F": "torch.nn.functional"}

#: the dunder names an answer may read (``super().__init__()``, ``type(x).__name__``,
#: ``torch.__version__``): strings, or the constructor
DUNDER_OK = frozenset({"__init__", "__name__", "__qualname__", "__doc__", "__version__"})

#: attributes of frames, tracebacks, generators and coroutines: each reaches some frame's globals
FRAME_ATTRS = words(
    "f_back f_builtins f_code f_globals f_locals f_lasti f_lineno f_trace f_trace_lines "
    "f_trace_opcodes f_generator tb_frame tb_next tb_lasti tb_lineno gi_frame gi_code "
    "gi_yieldfrom gi_suspended cr_frame cr_code cr_await cr_origin cr_suspended ag_frame "
    "ag_code ag_await ag_running"
)

BUILT = "code built at run time cannot be read, so it cannot be graded"
COMPUTED = "a name computed at run time cannot be read, so it cannot be graded"
INSIDES = "it reaches into the interpreter, around what grading relies on"
PICKLES = "it turns bytes back into Python objects, which can run any code"
STRINGS = "it finds objects or runs code from strings, which cannot be read"

#: builtins no answer may name, and why
BUILTINS_REFUSED = {
    "eval": BUILT,
    "exec": BUILT,
    "compile": BUILT,
    "__import__": BUILT,
    "globals": COMPUTED,
    "vars": COMPUTED,
    "locals": COMPUTED,
    "__builtins__": COMPUTED,
    "breakpoint": INSIDES,
}
#: builtins that look an attribute up by name: called directly, with the name written out
NAME_FUNCS = frozenset({"getattr", "setattr", "delattr", "hasattr"})

#: modules no answer may reach (and everything under them), and why
MODULES_REFUSED = {
    "importlib": BUILT, "imp": BUILT, "runpy": BUILT, "code": BUILT, "codeop": BUILT,
    "timeit": BUILT, "doctest": BUILT, "pdb": BUILT, "bdb": BUILT, "trace": BUILT,
    "profile": BUILT, "cProfile": BUILT, "site": BUILT,
    "sys": INSIDES, "builtins": INSIDES, "gc": INSIDES, "inspect": INSIDES, "ctypes": INSIDES,
    "_ctypes": INSIDES, "types": INSIDES, "__main__": INSIDES,
    "tutor": "it is the grader itself",
    "pickle": PICKLES, "_pickle": PICKLES, "marshal": PICKLES, "shelve": PICKLES,
    "copyreg": PICKLES, "multiprocessing": PICKLES, "_multiprocessing": PICKLES,
    "concurrent.futures.process": PICKLES, "concurrent.futures.ProcessPoolExecutor": PICKLES,
    "pkgutil": STRINGS, "pydoc": STRINGS, "logging.config": STRINGS, "unittest.mock": STRINGS,
    "string.Formatter": STRINGS, "_string": STRINGS,
    "torch._C": "private torch names such as `torch._C` reach into the interpreter, around what "
    "grading relies on", "torch.overrides": INSIDES, "torch.utils._python_dispatch": INSIDES,
    "torch.serialization": PICKLES, "torch.package": PICKLES, "torch.hub": STRINGS,
    "torch.multiprocessing": PICKLES, "torch.distributed.rpc": PICKLES,
    "torch.utils.model_zoo": PICKLES, "torch.utils.cpp_extension": BUILT,
    "torch.ops.load_library": BUILT, "torch.classes.load_library": BUILT,
}  # fmt: skip
#: torch.distributed functions that send Python objects as pickles
OBJECT_COLLECTIVES = frozenset(
    [
        "broadcast_object_list",
        "all_gather_object",
        "gather_object",
        "scatter_object_list",
        "send_object_list",
        "recv_object_list",
    ]
)
#: the members of torch.library an answer may use: define its own ops, never patch torch's
LIBRARY_OK = words(
    "custom_op triton_op register_fake register_autograd register_kernel register_vmap "
    "register_torch_dispatch opcheck infer_schema get_ctx wrap_triton CustomOpDef"
)
#: the dunder names whose definition or mention intercepts every torch call
TORCH_HOOKS = ("__torch_function__", "__torch_dispatch__")

#: the third-party modules an answer may import (besides those the drill's setup imports)
THIRD_PARTY_OK = frozenset({"torch", "numpy", "torch_xla"})

#: other array libraries: under rules they would compute what the rules forbid
ARRAY_LIBRARIES = words(
    "numpy jax jaxlib cupy scipy pandas tensorflow numba mlx dask xarray sklearn tinygrad "
    "paddle mxnet cudf"
)
THREADS = frozenset({"threading", "_thread", "concurrent", "asyncio", "signal"})
PROCESSES = frozenset({"multiprocessing", "subprocess", "pty", "posix", "nt", "_posixsubprocess"})
#: os functions that start processes
OS_PROCESSES = ("fork", "forkpty", "system", "popen", "exec", "spawn", "posix_spawn", "startfile")
#: torch modules that start processes or threads of their own
TORCH_PROCESSES = (
    "torch.multiprocessing", "torch.distributed.elastic", "torch.distributed.run",
    "torch.distributed.launch", "torch.distributed.launcher",
)  # fmt: skip
#: torch functions that run code in other threads
TORCH_THREADS = ("torch.jit.fork", "torch.jit._fork")
#: torch namespaces that reach around the dispatcher the rules are traced through
TORCH_INSIDES = ("torch.ops", "torch.overrides", "torch.library")

#: keyword -> the AST node types (by name) that count as using it
KEYWORD_NODES: dict[str, tuple[str, ...]] = {
    "for": ("For", "AsyncFor", "comprehension"),
    "while": ("While",),
    "if": ("If", "IfExp"),
    "lambda": ("Lambda",),
    "import": ("Import", "ImportFrom"),
    "try": ("Try", "TryStar"),
    "with": ("With", "AsyncWith"),
    "class": ("ClassDef",),
}
KEYWORDS = frozenset(KEYWORD_NODES)

#: tensor methods that run a Python function per element: loops in disguise
LOOP_METHODS = frozenset({"apply_", "map_", "map2_"})

#: builtins and the tensor methods they call on a tensor (beyond Python's operators)
_ITERATE = ("unbind",)
BUILTIN_METHODS: dict[str, tuple[str, ...]] = {
    "reversed": ("flip",), "abs": ("abs",), "round": ("round",), "pow": ("pow",),
    "divmod": ("floor_divide", "remainder"), "int": ("item",), "float": ("item",),
    "bool": ("item",), "complex": ("item",), "sum": (*_ITERATE, "sum"),
    "min": (*_ITERATE, "min"), "max": (*_ITERATE, "max"), "sorted": (*_ITERATE, "sort"),
    "all": (*_ITERATE, "all"), "any": (*_ITERATE, "any"), "list": _ITERATE, "tuple": _ITERATE,
    "set": _ITERATE, "frozenset": _ITERATE, "iter": _ITERATE, "enumerate": _ITERATE,
    "zip": _ITERATE, "map": _ITERATE, "filter": _ITERATE, "dict": _ITERATE,
}  # fmt: skip
#: builtins that are loops in disguise (``for`` forbids them)
LOOP_BUILTINS = frozenset({"map", "filter"})
#: what other modules offer as loops in disguise
LOOP_MODULES = ("itertools", "functools.reduce")

#: AST operator class name -> the tensor method it reaches
OPERATOR_METHODS = {
    "Add": "add", "Sub": "sub", "Mult": "mul", "Div": "div", "FloorDiv": "floor_divide",
    "Mod": "remainder", "Pow": "pow", "MatMult": "matmul", "LShift": "bitwise_left_shift",
    "RShift": "bitwise_right_shift", "BitAnd": "bitwise_and", "BitOr": "bitwise_or",
    "BitXor": "bitwise_xor", "USub": "neg", "UAdd": "positive", "Invert": "bitwise_not",
    "Eq": "eq", "NotEq": "ne", "Lt": "lt", "LtE": "le", "Gt": "gt", "GtE": "ge",
}  # fmt: skip

_EXCEPTIONS = {n for n in dir(builtins) if isinstance(getattr(builtins, n), type)
               and issubclass(getattr(builtins, n), BaseException)}  # fmt: skip
#: builtins an answer under ``allow`` may always use (a drill lists more by bare name)
DEFAULT_BUILTINS = frozenset({"len", "isinstance", "print", "slice", "Ellipsis", "NotImplemented"}
                             | _EXCEPTIONS)  # fmt: skip
#: tensor attributes an answer under ``allow`` may always read
ALWAYS_ATTRIBUTES = frozenset({"shape", "dtype", "device", "ndim"})
#: builtins a module or a class may be handed to: they only look at it
SINKS = frozenset({"print", "repr", "str", "id", "hash", "callable", "isinstance", "issubclass",
                   "setattr", "delattr", "vars",
                   "hasattr", "getattr", "format", "type", "dir"})  # fmt: skip
BUILTIN_NAMES = frozenset(dir(builtins))
