"""The judge interface, its registry, and the baseline adapters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reasonbench.baselines import load_rows, tfidf_predictions
from reasonbench.baselines.tfidf import family_label
from reasonbench.core.answer import Answer
from reasonbench.judges import (
    Decoding,
    Judge,
    JudgeError,
    instruction,
    make_judge,
    registered_judges,
)
from reasonbench.judges.base import register_judge
from reasonbench.strata.organizational.model import LABELS
from reasonbench.targets import TARGETS, parse_target
from reasonbench.targets.trim import trim_answer

TFIDF = {"ngram": [2, 3], "max_features": 5000}


def test_registry_names_and_errors() -> None:
    assert {"baseline", "hf_zero_shot", "lora", "tiny_zero_shot"} <= set(registered_judges())
    with pytest.raises(JudgeError, match="unknown judge factory 'nope'; registered: .*baseline"):
        make_judge("nope", name="x")
    with pytest.raises(ValueError, match="already registered"):
        register_judge("baseline")(lambda **_: None)  # type: ignore[arg-type,return-value]


def test_decoding_is_validated() -> None:
    assert not Decoding().sample
    with pytest.raises(JudgeError, match="temperature"):
        Decoding(sample=True, temperature=0.0)
    with pytest.raises(JudgeError, match="max_new_tokens"):
        Decoding(max_new_tokens=0)


@pytest.mark.parametrize("target", TARGETS.names())
def test_instruction_states_the_answer_format(target: str) -> None:
    text = instruction(target)
    assert "refer" in text and "Write nothing else." in text
    key = {"direct_verdict": "verdict:", "cube": "cube: -=", "rationale_receipt": "rationale:"}
    assert key.get(target, "receipt:") in text
    with pytest.raises(JudgeError, match="unknown target"):
        instruction("essay")


def test_trim_keeps_the_targets_lines() -> None:
    raw = "<think>\n\n</think>\n\nold: deny\nnew: approve\n\nreceipt: G\nBecause the facts changed."
    assert trim_answer(raw, "direct_receipt") == "old: deny\nnew: approve\nreceipt: G"
    assert trim_answer("verdict: deny\nmore", "direct_verdict") == "verdict: deny"


def test_baseline_judges_answer_like_the_baselines(small_bench: Path) -> None:
    every = load_rows(small_bench, with_cardinality=False)
    rows = {
        s: [r for r in every[s] if r["stratum"] == "organizational"]
        for s in ("train", "test_locked")
    }
    asked = rows["test_locked"]
    judge = make_judge(
        "baseline", name="tfidf", method="tfidf", data_dir=str(small_bench), tfidf=TFIDF
    )
    assert isinstance(judge, Judge) and not judge.sampling and judge.target == "direct_receipt"
    answers = judge.generate([r["prompt"] for r in asked])
    options = {"ngram": (2, 3), "max_features": 5000}
    records = {
        r.example_id: r for r in tfidf_predictions(rows, **options) if r.split == "test_locked"
    }
    for row, answer in zip(asked, answers, strict=True):
        rec = records[row["id"]]
        parsed = parse_target("direct_receipt", answer, LABELS)
        assert isinstance(parsed, Answer)
        assert (parsed.old, parsed.new) == (rec.pred_old_verdict, rec.pred_new_verdict)
        assert answer.endswith(family_label({"receipt": rec.pred_receipt}))
    majority = make_judge("baseline", name="m", method="majority", data_dir=str(small_bench))
    assert len(set(majority.generate([r["prompt"] for r in asked]))) == 1
    assert judge.generate([]) == []


def test_baseline_judge_errors(small_bench: Path, tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="unknown baseline"):
        make_judge("baseline", name="x", method="bert", data_dir=str(small_bench))
    with pytest.raises(JudgeError, match="no training split"):
        make_judge(
            "baseline",
            name="x",
            method="majority",
            data_dir=str(small_bench),
            train_splits=["nope"],
        )
    with pytest.raises(FileNotFoundError, match="no benchmark"):
        make_judge("baseline", name="x", method="majority", data_dir=str(tmp_path / "missing"))
    assert json.dumps(instruction("cube"))  # plain text, serializable into a card
