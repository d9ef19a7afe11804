"""A judge factory registered by name (docs/extending.md, "A new judge")."""

from collections.abc import Sequence

from reasonbench.judges import register_judge


class AlwaysVerdict:
    target, sampling = "direct_receipt", False

    def __init__(self, name: str, verdict: str) -> None:
        self.name, self.verdict = name, verdict

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        return [f"old: {self.verdict}\nnew: {self.verdict}\nreceipt: none" for _ in prompts]


@register_judge("always")
def build(name: str, verdict: str = "approve") -> AlwaysVerdict:
    return AlwaysVerdict(name, verdict)
