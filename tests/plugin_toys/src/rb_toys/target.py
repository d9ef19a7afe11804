"""A learning target (docs/extending.md, "A new learning target"): the revised verdict and
whether it changed, ``<verdict> changed=yes|no``."""

from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt
from reasonbench.targets import TARGETS, ParseError, Target


def parse_flag(text: str, labels: frozenset[str], sources: tuple[str, ...]) -> Answer:
    verdict, sep, flag = text.strip().partition(" changed=")
    if not sep or verdict not in labels or flag not in ("yes", "no"):
        raise ParseError(f"expected '<verdict> changed=yes|no', got {text[:40]!r}")
    return Answer(None, verdict, None)


def serialize(cube: Cube, receipt: Receipt, rationale: str) -> str:
    return f"{receipt.new} changed={'no' if receipt.stable else 'yes'}"


TARGETS.register(
    "verdict_flag",
    Target(
        name="verdict_flag",
        serialize=serialize,
        parse=parse_flag,
        answer_format="Give the revised verdict and whether it changed: <verdict> changed=yes|no",
        lines=1,
        max_new_tokens=8,
        verdict_only=True,
        verdict_source="model",
        verdict_pattern=lambda sources: r"^(\S+) changed=",
    ),
)
