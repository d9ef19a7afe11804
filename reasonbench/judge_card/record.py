"""The Judge Card as a typed record that round-trips through JSON (``judge_card.json``).

Everything the Markdown and HTML cards show comes from this record, so a card can be re-rendered
(or compared across judges) from the JSON alone.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from reasonbench.invariance.metrics import InvarianceReport, PisConfig

__all__ = ["FORMAT", "SECTIONS", "JudgeCard"]

# 2: accuracy as metrics.json summaries, consistency per stratum; 3: PIS under every Δflip rule
FORMAT = "reasonbench.judge_card/3"
# Section headings, in order; both renderings use them and the browser test looks for each.
SECTIONS = (
    "Policy Invariance Score",
    "Principle 1: rubric-semantics invariance",
    "Principle 2: rubric-threshold invariance",
    "Principle 3: ambiguity-aware calibration",
    "Accuracy and paired consistency",
    "Parse failures and jitter",
    "Data and configuration",
)


@dataclass(frozen=True)
class JudgeCard:
    judge: dict[str, Any]  # name, factory, target, sampling, settings
    data: dict[str, Any]  # manifest hash, benchmark, splits, items, units, clear items, ...
    runs: dict[str, Any]  # answers per prompt, jitter verification, parse failures by kind
    invariance: dict[str, InvarianceReport]  # by parse-failure handling: excluded, imputed
    accuracy: dict[str, Any]  # analysis metrics on the base prompts, consistency on controls
    pis_config: PisConfig
    settings: dict[str, Any]  # seed, replicates, margin, ...

    @property
    def pis(self) -> float | None:
        return self.invariance["excluded"].pis.value

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "judge": self.judge,
            "data": self.data,
            "runs": self.runs,
            "invariance": {k: v.to_json() for k, v in self.invariance.items()},
            "accuracy": self.accuracy,
            "pis_config": asdict(self.pis_config),
            "settings": self.settings,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JudgeCard:
        if data.get("format") != FORMAT:
            raise ValueError(
                f"not a judge card: format {data.get('format')!r}, expected {FORMAT!r}"
            )
        return cls(
            judge=data["judge"],
            data=data["data"],
            runs=data["runs"],
            invariance={k: InvarianceReport.from_json(v) for k, v in data["invariance"].items()},
            accuracy=data["accuracy"],
            pis_config=PisConfig(**data["pis_config"]),
            settings=data["settings"],
        )
