"""Where the loop stepper is in a recorded run: how many lines have run so far."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Playhead:
    """A position in a run of ``steps`` steps of ``width`` lines each.

    ``done`` counts the lines that have run; 0 is before the first line of the first step.
    """

    steps: int
    width: int = 5
    done: int = 0

    @property
    def end(self) -> int:
        """The position after the last line of the last step."""
        return self.steps * self.width

    @property
    def at_end(self) -> bool:
        """Whether the whole run has been played."""
        return self.done >= self.end

    @property
    def step(self) -> int:
        """0-based step of the line that ran last (-1 before the first line)."""
        return (self.done - 1) // self.width if self.done else -1

    @property
    def line(self) -> int:
        """Index of the line that ran last within its step (-1 before the first line)."""
        return (self.done - 1) % self.width if self.done else -1

    @property
    def completed(self) -> int:
        """How many whole steps have run."""
        return self.done // self.width

    def next_line(self) -> None:
        """Run one more line."""
        self.done = min(self.done + 1, self.end)

    def next_step(self) -> None:
        """Run to the end of the current step (or the whole next step at a step boundary)."""
        self.advance_steps(1)

    def advance_steps(self, n: int) -> None:
        """Run to the end of the step ``n`` steps on from the last completed one."""
        self.done = min((self.completed + n) * self.width, self.end)

    def rewind(self) -> None:
        """Back to before the first line."""
        self.done = 0

    def finish(self) -> None:
        """Jump to the end of the run."""
        self.done = self.end
