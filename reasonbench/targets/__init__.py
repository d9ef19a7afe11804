"""Learning targets: one registered :class:`Target` each (serialization, frozen strict parser,
answer format, decoding budget, what the answer carries)."""

from reasonbench.targets import builtin  # noqa: F401  (registers the paper's four targets)
from reasonbench.targets.base import (
    TARGETS,
    ParseError,
    ParseFailure,
    ParseResult,
    Target,
    get_target,
)
from reasonbench.targets.parse import parse_target
from reasonbench.targets.serialize import (
    all_targets,
    cube_target,
    direct_receipt,
    direct_verdict,
    gold_text,
    rationale_receipt,
    rationale_text,
)

__all__ = [
    "TARGETS",
    "ParseError",
    "ParseFailure",
    "ParseResult",
    "Target",
    "all_targets",
    "cube_target",
    "direct_receipt",
    "direct_verdict",
    "get_target",
    "gold_text",
    "parse_target",
    "rationale_receipt",
    "rationale_text",
]
