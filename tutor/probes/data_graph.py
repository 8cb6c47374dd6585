"""The graph viewer's data: what ``torch.export`` made of a model (torch-free; filled by
``tutor.probes.graph``, drawn by the graph lab and ``tutor lab graph``)."""

from __future__ import annotations

from pydantic import BaseModel


class GraphNode(BaseModel):
    """One node of the exported graph."""

    name: str
    op: str
    """``placeholder``, ``call_function``, ``get_attr`` or ``output``."""
    target: str
    """``str(node.target)``: ``aten.linear.default`` for an op, the name for the others."""


class Signature(BaseModel):
    """The ExportedProgram's graph signature: what each input and output of the graph is."""

    parameters: list[str]
    """The state_dict names of the lifted parameters, in placeholder order."""
    buffers: list[str]
    user_inputs: list[str]
    user_outputs: list[str]


class OpChange(BaseModel):
    """One op's count before and after ``run_decompositions()``."""

    target: str
    before: int
    after: int


class GraphView(BaseModel):
    """The export graph of a model: its op histogram before and after decomposition to Core
    ATen, its signature and its nodes in graph order."""

    ops: dict[str, int]
    """``call_function`` targets of the exported graph and how often each appears."""
    decomposed_ops: dict[str, int]
    """The same after ``ep.run_decompositions()``."""
    signature: Signature
    nodes: list[GraphNode]

    def diff(self) -> list[OpChange]:
        """Every op of either histogram: exported ops first (in graph order), then the ops
        decomposition introduced."""
        targets = list(self.ops) + [t for t in self.decomposed_ops if t not in self.ops]
        return [
            OpChange(target=t, before=self.ops.get(t, 0), after=self.decomposed_ops.get(t, 0))
            for t in targets
        ]

    def role(self, name: str) -> str:
        """What a placeholder is, from the signature: ``parameter``, ``buffer``, ``input`` or
        "" (not a placeholder the signature names)."""
        return self.placeholder_labels().get(name, ("", ""))[0]

    def placeholder_labels(self) -> dict[str, tuple[str, str]]:
        """Each placeholder's (role, state_dict name or input name), from the signature: export
        names a lifted ``0.weight`` ``p_0_weight``, a buffer ``b_...``, an input by its name."""
        sig = self.signature
        out: dict[str, tuple[str, str]] = {}
        for role, prefix, names in (("parameter", "p_", sig.parameters), ("buffer", "b_", sig.buffers)):  # fmt: skip
            for state in names:
                out[prefix + state.replace(".", "_")] = (role, state)
        for name in sig.user_inputs:
            out[name] = ("input", name)
        return out
