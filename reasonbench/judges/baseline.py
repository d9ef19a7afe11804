"""The surface baselines (every registered baseline kind: majority, char TF-IDF) as judges:
prompts in, ``direct_receipt`` text out.

They are the project's own baselines (:mod:`reasonbench.baselines`), fitted on the benchmark's
training rows of one stratum. A judge call hands the prompts to the baseline as an extra split
and turns each prediction record back into the answer text, so the judge and ``reasonbench
baselines`` predict identically. The built-in kinds are deterministic (greedy).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reasonbench.baselines import BASELINES, load_rows
from reasonbench.baselines.tfidf import family_label
from reasonbench.judges.base import JudgeError, register_judge
from reasonbench.predictions.record import PredictionRecord

__all__ = ["BaselineJudge", "baseline_judge"]

SPLIT = "judge"


class BaselineJudge:
    target = "direct_receipt"
    sampling = False

    def __init__(
        self,
        name: str,
        method: str,
        data_dir: Path,
        stratum: str = "organizational",
        train_splits: Sequence[str] = ("train",),
        tfidf: dict[str, Any] | None = None,
    ) -> None:
        if method not in BASELINES:
            raise JudgeError(BASELINES.unknown(method))
        rows = load_rows(Path(data_dir), with_cardinality=False)
        missing = [s for s in train_splits if s not in rows]
        if missing:
            raise JudgeError(f"{data_dir}: no training split(s) {missing}")
        self.train = [r for s in train_splits for r in rows[s] if r["stratum"] == stratum]
        if not self.train:
            raise JudgeError(f"{data_dir}: no {stratum} rows in {list(train_splits)}")
        self.name, self.method, self.stratum = name, method, stratum
        # the kind's settings, as the top-level key of its name of reasonbench baselines (only
        # tfidf has any); what is not given is the kind's default, recorded as such: a Judge
        # Card shows the settings the judge ran with, not `null`
        defaults = getattr(BASELINES.get(method), "default_settings", None)
        self.options = {**defaults(), **(tfidf or {})} if defaults else {}
        self.effective_args = {"tfidf": self.options or None}

    def _records(self, prompts: Sequence[str]) -> list[PredictionRecord]:
        asked = [
            {"id": f"{SPLIT}-{i:08d}", "split": SPLIT, "stratum": self.stratum, "prompt": p}
            for i, p in enumerate(prompts)
        ]
        rows = {"train": self.train, SPLIT: asked}
        return BASELINES.get(self.method)(rows, self.method, ("train",), self.options)

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        if not prompts:
            return []
        answers = {r.example_id: r for r in self._records(prompts) if r.split == SPLIT}
        out = []
        for i in range(len(prompts)):
            r = answers[f"{SPLIT}-{i:08d}"]
            receipt = family_label({"receipt": r.pred_receipt or "[]"})
            out.append(f"old: {r.pred_old_verdict}\nnew: {r.pred_new_verdict}\nreceipt: {receipt}")
        return out


@register_judge("baseline")
def baseline_judge(
    name: str,
    method: str,
    data_dir: str,
    stratum: str = "organizational",
    train_splits: Sequence[str] = ("train",),
    tfidf: dict[str, Any] | None = None,
) -> BaselineJudge:
    return BaselineJudge(name, method, Path(data_dir), stratum, tuple(train_splits), tfidf)
