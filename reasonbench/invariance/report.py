"""The typed inputs and outputs of the policy-invariance metrics (JSON round-trip).

Inputs are parsed revised verdicts, one per run (``None``: the answer did not parse): a base
prompt against one certified rewrite (:class:`Comparison`), repeated runs on one prompt
(:class:`Repeat`) and the two sides of a threshold-shift pair (:class:`PairRuns`). Outputs are
:class:`Estimate` values with clustered-bootstrap intervals, gathered in an
:class:`InvarianceReport` per parse-failure handling.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from reasonbench.settings import help_line

__all__ = [
    "DELTA_FLIP_RULES",
    "Comparison",
    "Estimate",
    "InvarianceReport",
    "PairRuns",
    "PisConfig",
    "PisConfigError",
    "Repeat",
    "Verdict",
]

Verdict = str | None

# How Δflip enters PIS. "seed": as the seed paper writes the formula, Δflip as measured, so a
# negative one (rewrites flipped less often than repeated runs of the same prompt) lowers the
# penalty and PIS can exceed 1. "clipped": our earlier reading, max(0, Δflip): a negative excess
# is noise, never a bonus. Both are reported (docs/invariance.md, "PIS: the Δflip rule").
DELTA_FLIP_RULES = ("seed", "clipped")


class PisConfigError(ValueError):
    """A bad ``pis:`` setting; the message names the key."""


@dataclass(frozen=True)
class Comparison:
    """A base prompt vs one certified rewrite of it."""

    unit: str
    transform: str
    variant: str
    clear: bool
    base: tuple[Verdict, ...]
    rewrite: tuple[Verdict, ...]


@dataclass(frozen=True)
class Repeat:
    """Repeated runs on one identical prompt (jitter)."""

    unit: str
    runs: tuple[Verdict, ...]


@dataclass(frozen=True)
class PairRuns:
    unit: str
    expected: str  # "to_lax" or "none", by execution
    strict: tuple[Verdict, ...]
    lax: tuple[Verdict, ...]


@dataclass(frozen=True)
class PisConfig:
    """PIS = max(0, 1 - (w1*dflip + w2*(1 - R_dir) + w3*U_rate) * scale)"""

    w1: float = field(
        default=0.4, metadata=help_line("weight of dflip: the original authors' prior, not a law")
    )
    w2: float = field(default=0.3, metadata=help_line("weight of 1 - R_dir"))
    w3: float = field(default=0.3, metadata=help_line("weight of U_rate"))
    scale: float = field(default=5.0, metadata=help_line("multiplies the weighted sum"))
    r_dir_without_flips: float = field(
        default=0.0, metadata=help_line("R_dir of a judge that never flips under a threshold shift")
    )
    u_rate_without_flips: float = field(
        default=0.0, metadata=help_line("U_rate of a judge that never flips under a rewrite")
    )
    # the headline PIS's rule; every rule is reported
    delta_flip_rule: str = field(
        default="seed",
        metadata=help_line(
            "headline PIS: seed (dflip as is, as the paper writes it) | clipped (max(0, dflip))"
        ),
    )

    def __post_init__(self) -> None:
        if self.delta_flip_rule not in DELTA_FLIP_RULES:
            raise PisConfigError(
                f"pis.delta_flip_rule: unknown rule {self.delta_flip_rule!r}; rules: "
                f"{', '.join(DELTA_FLIP_RULES)}"
            )


@dataclass(frozen=True)
class Estimate:
    """A statistic with its 95% clustered-bootstrap interval (``None`` where undefined)."""

    value: float | None
    low: float | None
    high: float | None
    n: int  # comparisons (or run pairs) it rests on

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Estimate:
        return cls(**data)


@dataclass(frozen=True)
class InvarianceReport:
    handling: str
    flip: dict[str, Estimate]  # transform family -> rate, plus "pooled"
    jitter: Estimate
    delta_flip: dict[str, Estimate]
    r_dir: Estimate
    flip_share: Estimate  # strict -> lax verdict changes / strict-lax run pairs
    expected_share: float | None  # share of pairs whose executed verdict changes
    sensitivity: float | None  # judge deny->approve pairs / pairs where execution says so
    u_rate: Estimate
    flips_clear: float
    flips_total: float
    pis: Estimate  # under the configured Δflip rule
    pis_by_rule: dict[str, Estimate]  # every rule of DELTA_FLIP_RULES
    by_variant: dict[str, float | None]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in vars(self).items():
            if isinstance(value, Estimate):
                out[key] = value.to_json()
            elif key in ESTIMATE_MAPS:
                out[key] = {k: v.to_json() for k, v in value.items()}
            else:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InvarianceReport:
        fields: dict[str, Any] = dict(data)
        for key in ("jitter", "r_dir", "flip_share", "u_rate", "pis"):
            fields[key] = Estimate.from_json(data[key])
        for key in ESTIMATE_MAPS:
            fields[key] = {k: Estimate.from_json(v) for k, v in data[key].items()}
        return cls(**fields)


ESTIMATE_MAPS = ("flip", "delta_flip", "pis_by_rule")  # fields that map a name to an Estimate
