"""Records from generations: frozen parsers, derived fields, confidences and their sources."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import receipt_of
from reasonbench.infer.cache import GenerationCache, cache_key
from reasonbench.infer.confidence import probability, span_logprob, verdict_span
from reasonbench.infer.records import make_record
from reasonbench.targets import cube_target, direct_receipt, direct_verdict, rationale_receipt

LABELS = frozenset({"approve", "deny", "refer"})
CELLS = {"": "deny", "G": "approve", "N": "approve", "A": "deny",
         "G+N": "approve", "G+A": "approve", "N+A": "approve", "G+N+A": "refer"}  # fmt: skip
CUBE = Cube.from_cells(CELLS)
RECEIPT = receipt_of(CUBE)
GOLD = {
    "direct_verdict": direct_verdict(RECEIPT),
    "direct_receipt": direct_receipt(RECEIPT),
    "rationale_receipt": rationale_receipt(RECEIPT, "before: x. after: y."),
    "cube": cube_target(CUBE),
}
ROW = {"id": "ex-1", "split": "test_locked"}


def entry(raw: str) -> dict[str, object]:
    return {"raw_output": raw, "seq_prob": 0.5, "verdict_token_prob": 0.9}


@pytest.mark.parametrize("target", sorted(GOLD))
def test_gold_outputs_parse_into_records(target: str) -> None:
    record = make_record(ROW, "m-" + target, 3, target, entry(GOLD[target]), LABELS, "seq_prob")
    record.validate()
    assert record.parse_ok and record.pred_new_verdict == "refer"
    assert (record.confidence, record.confidence_source) == (0.5, "seq_prob")
    if target == "direct_verdict":
        assert record.pred_old_verdict is None and record.pred_receipt is None
    else:
        assert record.pred_old_verdict == "deny"
        assert json.loads(record.pred_receipt or "") == RECEIPT.family()
    if target == "cube":
        assert json.loads(record.pred_cube or "") == CELLS
        assert record.verdict_source == "derived_from_cube"
    span = verdict_span(target, GOLD[target])
    assert span is not None and GOLD[target][span[0] : span[1]] == "refer"


def test_parse_failure_keeps_raw_output_and_source() -> None:
    raw = "cube: nonsense"
    out = {"raw_output": raw, "seq_prob": 0.1, "verdict_token_prob": None}
    record = make_record(ROW, "m", 0, "cube", out, LABELS, "verdict_token_prob")
    record.validate()
    assert not record.parse_ok and record.raw_output == raw
    assert record.pred_new_verdict is None and record.pred_cube is None
    assert record.confidence is None and record.confidence_source == "verdict_token_prob"


def test_span_probability() -> None:
    text = "verdict: refer"
    ends = [8, 9, 12, 14]  # "verdict:", " ", "ref", "er"
    logprobs = [-0.1, -0.2, -0.3, -0.4, -0.5]  # the last one is end-of-sequence
    lp = span_logprob(ends, logprobs, verdict_span("direct_verdict", text) or (0, 0))
    assert lp == pytest.approx(-0.7)
    assert probability(lp) == pytest.approx(math.exp(-0.7))
    assert probability(None) is None and probability(5.0) == 1.0


def test_cache_survives_a_partial_line(tmp_path: Path) -> None:
    key = cache_key("model", "adapter", "prompt", {"max_new_tokens": 4})
    assert key != cache_key("model", "adapter", "prompt", {"max_new_tokens": 5})
    cache = GenerationCache(tmp_path, rank=0)
    cache.put([{"key": key, "raw_output": "x"}])
    cache.close()
    with (tmp_path / "rank-0.jsonl").open("a") as handle:
        handle.write('{"key": "cut sh')  # a kill in the middle of a write
    again = GenerationCache(tmp_path, rank=0)
    assert key in again and len(again.entries) == 1
    again.put([{"key": "other", "raw_output": "y"}])
    again.close()
    lines = (tmp_path / "rank-0.jsonl").read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == [key, "other"]
