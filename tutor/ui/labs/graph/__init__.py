"""The graph viewer lab: torch.export graph, signature, op histogram and decomposition diff."""
