"""`tutor lab bench CODE [--threads N] [--json]`: the benchmark lab, headless."""

from __future__ import annotations

from tutor.commands.labs.common import lab_command
from tutor.content.wording import plural
from tutor.probes.data_bench import Bench

#: what `tutor lab bench --help` says it does
HELP = (
    "Time CODE's `fn` (a zero-argument callable) naively and honestly, and profile it. Code "
    "that calls torch.compile runs under the sandbox's `compile` limits profile."
)


def render(data: Bench) -> str:
    """The three clocks side by side, then the profiler's table."""
    t = data.timer
    samples = ", ".join(f"{ms:.3f}" for ms in data.naive_samples_ms)
    lines = [
        f"first call              {data.first_call_ms:12.3f} ms   (warm-up and set-up land here)",
        f"naive time.time() pair  {data.naive_ms:12.3f} ms   (one warm call, one sample)",
        f"  more naive samples:   {samples} ms",
        f"Timer.blocked_autorange {t.median_ms:12.3f} ms   median per call",
        f"  IQR {t.iqr_ms:.3f} ms over {t.runs} blocks of {t.number_per_run} calls, "
        f"{plural(t.threads, 'thread')} pinned (torch's default here: {data.default_threads})",
        f"profiler, top ops by self time over {plural(data.profiled_calls, 'call')}:",
    ]
    lines += [f"  {p.op:<34}{p.self_ms:10.3f} ms{p.calls:8d} calls" for p in data.profile]
    return "\n".join(lines)


bench = lab_command("bench", HELP, render)
