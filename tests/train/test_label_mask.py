"""The three things a training run must get exactly right, each checked against an independent
reference in milliseconds (the overfit tests, tests/train/test_overfit.py, check them end to end):

- the label mask: a label on every target token and on nothing else, in every batching mode;
- the shift: each target token is predicted from the position before it, as transformers' own
  causal-LM loss does;
- the cue: training feeds the prompt tokens that prediction feeds.

A label mask shifted by one, a loss on the prompt, or a cue that differs by one newline each
still trains with a falling loss. The overfit tests catch them through wrong answers: 16 of 16
in every case (the shift), 3 to 15 of 16 (the cue), one of 16 in two of the four cases (the loss
on the prompt: a thin margin; docs/training.md). These catch each by an exact comparison.
"""

from __future__ import annotations

import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import Qwen3ForCausalLM

from reasonbench.models import Encoded, qwen3_config
from reasonbench.models.prompting import encode_prompt, encode_target, model_input
from reasonbench.models.tiny import train_tokenizer
from reasonbench.train.batching import IGNORE, MODES, layout, micro_batches
from reasonbench.train.data import TrainExample
from reasonbench.train.lora import TargetTokenLoss, batch_inputs
from reasonbench.train.run import encode_all

# (prompt length, target length) pairs; token ids come from the pair's position
SHAPES = st.lists(st.tuples(st.integers(1, 30), st.integers(1, 8)), min_size=1, max_size=12)


def _examples(shapes: list[tuple[int, int]]) -> list[Encoded]:
    out = []
    for k, (prompt, target) in enumerate(shapes):
        ids = tuple(2 + (7 * k + j) % 58 for j in range(prompt + target))
        out.append(Encoded(ids, prompt, False))
    return out


@settings(max_examples=60, deadline=None)
@given(shapes=SHAPES, mode=st.sampled_from(MODES), budget=st.integers(40, 160))
def test_labels_are_the_target_tokens_and_nothing_else(
    shapes: list[tuple[int, int]], mode: str, budget: int
) -> None:
    data = _examples(shapes)
    plan = layout(data, mode, budget)
    batches = micro_batches(data, mode, budget, pad_id=0)
    assert len(plan) == len(batches)
    for rows, batch in zip(plan, batches, strict=True):
        expected = torch.full_like(batch.labels, IGNORE)
        for r, row in enumerate(rows):
            at = 0
            for i in row:  # examples sit one after another in their row (collate)
                e = data[i]
                span = torch.tensor(e.input_ids)
                assert torch.equal(batch.input_ids[r, at : at + e.length], span)
                expected[r, at + e.prompt_length : at + e.length] = span[e.prompt_length :]
                at += e.length
        assert torch.equal(batch.labels, expected)


def test_each_target_token_is_predicted_from_the_position_before_it() -> None:
    """TargetTokenLoss (the decoder, then the head on target positions only) against
    transformers' own shifted causal-LM loss on the same padded batch."""
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(qwen3_config("tiny", vocab_size=64, pad_token_id=0, eos_token_id=1))
    data = _examples([(9, 3), (14, 5), (5, 2), (11, 4)])
    (batch,) = micro_batches(data, "padded", 10_000, pad_id=0)
    ours = TargetTokenLoss(model, causal_lm=lambda m: m)(**batch_inputs(batch))
    reference = model(
        input_ids=batch.input_ids,
        attention_mask=batch.attention_mask,
        position_ids=batch.position_ids,
        labels=batch.labels,
    ).loss
    assert batch.target_tokens == sum(e.length - e.prompt_length for e in data)
    torch.testing.assert_close(ours / batch.target_tokens, reference, rtol=1e-5, atol=1e-6)


def test_training_feeds_the_prompt_tokens_prediction_feeds() -> None:
    """``reasonbench predict`` and the learning curve encode a prompt with ``encode_prompt``
    (infer/run.py, infer/curve.py), the ``lora`` judge by tokenizing ``model_input`` (its
    renderer, judges/lora.py; ``CausalLMJudge._decode``): training's prompt part must be those
    very tokens, cue included, then the target and EOS."""
    prompts = ["RULE\nApprove if cost is at most €100.", "FACTS\nbold(bob).\nQUESTION\nshy(bob)?"]
    tokenizer = train_tokenizer([*prompts, "verdict: approve", "receipt: none"], 300)
    examples = [TrainExample(f"ex{i}", p, "verdict: approve") for i, p in enumerate(prompts)]
    encoded = encode_all(tokenizer, examples, max_length=512, progress=False)
    for prompt, e in zip(prompts, encoded, strict=True):
        judged = tokenizer(model_input(prompt), add_special_tokens=False)["input_ids"]
        assert list(e.input_ids[: e.prompt_length]) == encode_prompt(tokenizer, prompt) == judged
        assert list(e.input_ids[e.prompt_length :]) == encode_target(tokenizer, "verdict: approve")
        assert e.input_ids[-1] == tokenizer.eos_token_id
