"""A user's own judge, as docs/extending.md writes one: a factory ``name, **args -> Judge``."""

from __future__ import annotations

from collections.abc import Sequence


class AlwaysApprove:
    """Answers every prompt ``direct_receipt``-style with a fixed verdict and no change."""

    target = "direct_receipt"
    sampling = False

    def __init__(self, name: str, verdict: str) -> None:
        self.name, self.verdict = name, verdict

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        return [f"old: {self.verdict}\nnew: {self.verdict}\nreceipt: none" for _ in prompts]


def build(name: str, verdict: str = "approve") -> AlwaysApprove:
    return AlwaysApprove(name, verdict)
