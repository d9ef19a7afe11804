"""Learning targets: serializations and their frozen strict parsers."""

from reasonbench.targets.parse import Parsed, ParseFailure, ParseResult, parse_target
from reasonbench.targets.serialize import (
    TARGETS,
    all_targets,
    cube_target,
    direct_receipt,
    direct_verdict,
    rationale_receipt,
    rationale_text,
)

__all__ = [
    "TARGETS",
    "ParseFailure",
    "ParseResult",
    "Parsed",
    "all_targets",
    "cube_target",
    "direct_receipt",
    "direct_verdict",
    "parse_target",
    "rationale_receipt",
    "rationale_text",
]
