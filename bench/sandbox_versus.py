"""The warm sandbox round trip of this checkout against another one, side by side.

``python bench/sandbox_versus.py OTHER`` starts one warm runtime from each checkout (each with
its own ``.venv``), then runs the small snippet of ``bench/sandbox.py`` through them in
interleaved blocks, so both sides see the same load, and prints each side's p50, p10, p90, the
median of each phase of a run, and the ratio of the p50s. OTHER is a checkout of another
revision (``git worktree add /tmp/before main``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: run in each checkout: a warm sandbox that runs the snippet N times per line read
SERVER = """
import json, sys, time
from tutor.sandbox import Sandbox
SNIPPET = "x = torch.arange(12.0).reshape(3, 4)\\nprint((x @ x.T).sum().item())\\n"
box = Sandbox(containment=sys.argv[1])
box.start()
for _ in range(5):
    box.run(SNIPPET)
print(json.dumps(box.layers), flush=True)
for line in sys.stdin:
    out = []
    for _ in range(int(line)):
        t0 = time.perf_counter()
        result = box.run(SNIPPET)
        assert result.ok and result.stdout.strip() == "1134.0", result
        out.append([(time.perf_counter() - t0) * 1000, box.last_timings])
    print(json.dumps(out), flush=True)
box.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "other", type=Path, nargs="?", help="the other checkout (with its own .venv)"
    )
    parser.add_argument("--containment", default="auto", help="auto, bwrap or rlimits")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--block", type=int, default=20)
    args = parser.parse_args()
    if args.other is None:  # `make bench` runs every bench with no arguments
        print("sandbox_versus: give another checkout to compare with (see --help)")
        return
    sides = {"other": args.other.resolve(), "this": ROOT}
    servers = {}
    for name, tree in sides.items():
        server = subprocess.Popen(
            [str(tree / ".venv" / "bin" / "python"), "-c", SERVER, args.containment],
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None
        print(f"{name:5s} {tree}: {', '.join(json.loads(server.stdout.readline()))}")
        servers[name] = server
    times: dict[str, list[float]] = {name: [] for name in sides}
    phases: dict[str, dict[str, list[float]]] = {name: {} for name in sides}
    for _ in range(args.rounds):
        for name, server in servers.items():
            assert server.stdin is not None and server.stdout is not None
            server.stdin.write(f"{args.block}\n")
            server.stdin.flush()
            for ms, phase in json.loads(server.stdout.readline()):
                times[name].append(ms)
                for key, value in phase.items():
                    phases[name].setdefault(key, []).append(value)
    for server in servers.values():
        assert server.stdin is not None
        server.stdin.close()
        server.wait()
    for name in sides:
        q = statistics.quantiles(times[name], n=10)
        print(
            f"{name:5s} warm p50 {statistics.median(times[name]):6.2f} ms"
            f" (p10 {q[0]:.1f}, p90 {q[-1]:.1f}; n={len(times[name])})"
        )
        print(
            "      " + "  ".join(f"{k} {statistics.median(v):.2f}" for k, v in phases[name].items())
        )
    ratio = statistics.median(times["this"]) / statistics.median(times["other"])
    print(f"ratio this/other p50 {ratio:.3f}")


if __name__ == "__main__":
    main()
