"""What an instruction-following judge sees: instruction, deterministic few-shot examples from
train, then the prompt — the same text for the local and the served judge."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasonbench.judges import JudgeError, instruction
from reasonbench.judges.prompting import Example, Prompter, fewshot_examples


def test_zero_shot_text_is_unchanged() -> None:
    # the pre-few-shot plain format of hf_zero_shot: no Judge Card answer moves
    assert (
        Prompter("direct_verdict").text("P") == f"{instruction('direct_verdict')}\n\nP\n\nAnswer:\n"
    )


def test_examples_precede_the_prompt_in_both_shapes() -> None:
    shots = (Example("a", "EX1", "verdict: approve"), Example("b", "EX2", "verdict: deny"))
    prompter = Prompter("direct_verdict", shots)
    text = prompter.text("Q")
    assert text.index("EX1") < text.index("verdict: approve") < text.index("EX2") < text.index("Q")
    roles = [m["role"] for m in prompter.messages("Q")]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    inline = Prompter("direct_verdict", shots, system=False).messages("Q")
    assert inline[0]["content"].startswith(instruction("direct_verdict")) and len(inline) == 5


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 12), st.integers(0, 3))
def test_fewshot_draw_is_deterministic_and_balanced(small_bench: Path, k: int, seed: int) -> None:
    shots = fewshot_examples(small_bench, "direct_receipt", k, seed)
    assert shots == fewshot_examples(small_bench, "direct_receipt", k, seed) and len(shots) == k
    rows = pq.read_table(small_bench / "train.parquet").to_pylist()
    by_id = {r["id"]: r for r in rows}
    assert all(by_id[s.example_id]["target_direct_receipt"] == s.answer for s in shots)
    strata = [by_id[s.example_id]["stratum"] for s in shots]
    assert abs(strata.count("logical") - strata.count("organizational")) <= 1  # round-robin
    assert len({s.example_id for s in shots}) == k


def test_fewshot_seed_changes_the_draw_and_errors(small_bench: Path, tmp_path: Path) -> None:
    assert fewshot_examples(small_bench, "cube", 4, 0) != fewshot_examples(
        small_bench, "cube", 4, 1
    )
    assert fewshot_examples(small_bench, "cube", 0) == []
    with pytest.raises(JudgeError, match="train split"):
        fewshot_examples(tmp_path, "cube", 2)
    with pytest.raises(JudgeError, match="only"):
        fewshot_examples(small_bench, "cube", 10**6)
