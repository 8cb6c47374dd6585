"""The main module of a ``spawn`` or ``forkserver`` child that learner code starts.

multiprocessing starts such a child as a fresh Python and runs the parent's ``__main__.__file__``
in it (as ``__mp_main__``) so that functions defined by the learner's code can be unpickled
there. Learner code has no file: the run's agent points ``__file__`` here and has the zygote save the
code beside the run's scratch dir; run as ``__mp_main__``, this module defines the same names again,
with torch, nn and F pre-imported as in the run. Imported as a module it only offers
``answer_path``.
"""

from __future__ import annotations

import os

#: where the agent saves the learner's code for the run's spawned children
ENV = "TUTOR_ANSWER_FILE"


def answer_path(scratch: str) -> str:
    """Where the zygote saves a run's code: beside its scratch dir, outside what it lists."""
    return scratch.rstrip("/") + ".py"


if __name__ == "__mp_main__":
    import torch  # noqa: F401 - names the learner's code finds, as in its run
    import torch.nn as nn  # noqa: F401
    import torch.nn.functional as F  # noqa: F401

    _path = os.environ.get(ENV, "")
    with open(_path, encoding="utf-8") as _fh:
        _code = _fh.read()
    exec(compile(_code, "<answer>", "exec"))  # noqa: S102 - the learner's own code, in its run
    del _path, _fh, _code
