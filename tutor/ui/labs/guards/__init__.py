"""The guard viewer lab: graphs, graph breaks, guards, recompiles and ops of a compiled function."""
