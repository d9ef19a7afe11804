"""Training is proven by overfitting: the tiny model, trained on a handful of ``train`` examples,
must reproduce every one of them exactly through ``reasonbench predict``'s own decoding path.

A run that merely "runs" proves nothing: a label mask shifted by one token, a loss on prompt
tokens, a cue that differs between training and prediction, a collator that mixes rows, a LoRA
that trains nothing or a decoder that drops the first token all still finish with a falling loss.
Each of them makes at least one memorised answer come back wrong here (docs/training.md lists which
hand-made bug each case caught). Every target is trained once; the cases rotate the three batching
modes and the two tunings: each tuning meets two targets, each mode at least one. Each case trains
and decodes on one thread (``threads=1``): the suite runs in two pytest-xdist workers on a 2-core
machine, and two 2-thread runs side by side spin-wait against each other (2 to 4 minutes a case
with one more job on the machine, against 20-30 s).

The steps carry a margin because the step at which the last answer is memorised moves with the
floating-point order. Measured on 2026-12-06 (accuracy every 10 steps on the 16 answers):
LoRA memorises ``direct_verdict`` at 50 steps (60 on two threads) and ``direct_receipt`` at 70
(70); full tuning memorises ``cube`` at 110 (120) and ``rationale_receipt`` at 120 (140), and
every answer stays memorised up to 180. Other settings need more steps, not fewer: full tuning
for 100 steps leaves 1 to 13 of 16 answers wrong at a constant 5e-3, 1e-2 or 2e-2, and ends on a
plateau (loss 0.4-0.5, answers unparsed) at 2e-2 or 3e-2 with a cosine decay or at betas
(0.9, 0.95); LoRA on ``rationale_receipt``/``cube`` leaves 14-16 of 16 wrong at 80 steps and 2 of
16 (``cube``) at 100; half-batches need twice the steps. A step is a forward and backward pass over
about 4k tokens (16 prompts of about 215 tokens). The file takes 74 s on one core (``-n 0``) and
56 s with its cases on the suite's two workers (``-n 2``), measured on 2026-12-06 on an idle
2-core Xeon: within issue 30's 60 s as the suite runs it, not on one core.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reasonbench.analysis.gold import load_gold
from reasonbench.analysis.scoring import carried, project, said
from reasonbench.core.answer import Answer
from reasonbench.infer.run import predict
from reasonbench.predictions.io import read_predictions
from reasonbench.train.run import train
from tests.train.helpers import composed

EXAMPLES = 16  # the shortest prompts of each stratum, both strata present

# (target, tuning, batching): every target once; each tuning meets two targets, each batching
# mode at least one (padded both tunings)
CASES = [
    ("direct_verdict", "lora", "padded"),
    ("direct_receipt", "lora", "length_grouped"),
    ("rationale_receipt", "full", "padding_free"),
    ("cube", "full", "padded"),
]

# Full-batch steps and a constant rate that memorise 16 answers with a margin (the loss ends
# below 0.01). LoRA on the random-init tiny model is ``lora=scratch``, the CPU model's: its
# embeddings and norms train in full too. With them frozen, the logits cannot become confident:
# the loss stays near 5.6 and an answer flips with the last decimals.
SETTINGS = {
    "full": ("160", "1.0e-2", "lora=default"),
    "lora": ("100", "5.0e-3", "lora=scratch"),
}


@pytest.fixture(scope="module")
def handful(small_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A benchmark directory whose ``train`` split holds the shortest examples of each stratum
    (the tokenizer of the tiny model is then learnt from them too, so sequences are short)."""
    table = pq.read_table(small_bench / "train.parquet")
    rows = table.to_pylist()
    chosen: list[int] = []
    for stratum in sorted({r["stratum"] for r in rows}):
        mine = sorted(
            (i for i, r in enumerate(rows) if r["stratum"] == stratum),
            key=lambda i: (len(rows[i]["prompt"]), rows[i]["id"]),
        )
        chosen += mine[: EXAMPLES // 2]
    out = tmp_path_factory.mktemp("handful")
    pq.write_table(table.take(sorted(chosen)), out / "train.parquet")
    return out


def _overrides(bench: Path, tmp: Path, target: str, tuning: str, *extra: str) -> list[str]:
    return [
        "model=tiny",
        f"model.cache_dir={bench.with_name(bench.name + '-model')}",  # one build per worker
        f"model.tuning={tuning}",
        f"target={target}",
        f"data_dir={bench}",
        f"run_dir={tmp / 'run'}" if extra and extra[0] == "predict" else f"out_dir={tmp / 'run'}",
        "progress=false",
        *extra[1:],
    ]


@pytest.mark.parametrize(("target", "tuning", "batching"), CASES)
def test_the_tiny_model_memorises_a_handful_exactly(
    handful: Path, tmp_path: Path, target: str, tuning: str, batching: str
) -> None:
    steps, lr, saved = SETTINGS[tuning]
    train(
        composed(
            "train",
            _overrides(
                handful, tmp_path, target, tuning, "train",
                f"batching={batching}", f"optim.max_steps={steps}", f"optim.lr={lr}",
                f"optim.batch_size={EXAMPLES}", "optim.warmup_ratio=0", "optim.scheduler=constant",
                "lora.dropout=0.0", saved, "model.micro_batch_tokens=4096", "save_every=100000",
                "threads=1",
            ),
        )
    )  # fmt: skip
    predictions = tmp_path / "preds"
    predict(
        composed(
            "predict",
            _overrides(
                handful, tmp_path, target, tuning, "predict",
                "splits=[train]", f"predictions_dir={predictions}", f"cache_dir={tmp_path / 'c'}",
                "threads=1",
            ),
        )
    )  # fmt: skip
    gold = load_gold(handful)
    records = read_predictions(predictions / f"tiny-{target}" / "seed0.jsonl")
    assert len(records) == len(gold) == EXAMPLES
    fields = carried(target)
    wrong = []
    for record in records:
        truth = gold[record.example_id]
        expected = project(Answer.of_receipt(truth.receipt, truth.cube), fields)
        if not record.parse_ok or said(record, truth.cube.sources) != expected:
            wrong.append((record.example_id, record.raw_output))
    assert not wrong, f"{len(wrong)} of {EXAMPLES} not reproduced: {wrong[:3]}"
