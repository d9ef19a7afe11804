"""Batching modes lay out the same step differently and compute the same loss and gradient."""

from __future__ import annotations

import random

import pytest
import torch
from transformers import Qwen3ForCausalLM

from reasonbench.models import Encoded, qwen3_config, varlen
from reasonbench.train.batching import IGNORE, MODES, layout, micro_batches
from reasonbench.train.lora import TargetTokenLoss, add_lora, batch_inputs
from reasonbench.train.steps import rank_share, step_examples, steps_per_epoch

LORA = {"r": 4, "alpha": 8, "dropout": 0.0, "target_modules": ["q_proj", "v_proj", "down_proj"]}


def examples(n: int, seed: int = 0) -> list[Encoded]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        prompt, target = rng.randint(5, 40), rng.randint(1, 8)
        ids = tuple(rng.randrange(2, 60) for _ in range(prompt + target))
        out.append(Encoded(ids, prompt, False))
    return out


@pytest.mark.parametrize("mode", MODES)
def test_every_example_once_within_budget(mode: str) -> None:
    data = examples(23)
    plan = layout(data, mode, micro_batch_tokens=120)
    placed = sorted(i for batch in plan for row in batch for i in row)
    assert placed == list(range(23))
    for batch in micro_batches(data, mode, 120, pad_id=0):
        assert batch.padded_tokens <= 120 or batch.input_ids.shape[0] == 1
        assert batch.tokens == int((batch.position_ids >= 0).sum()) - (
            batch.padded_tokens - batch.tokens
        )
    targets = sum(b.target_tokens for b in micro_batches(data, mode, 120, pad_id=0))
    assert targets == sum(e.target_tokens for e in data)


def test_padding_free_has_no_padding() -> None:
    data = examples(17)
    batches = micro_batches(data, "padding_free", 200, pad_id=0)
    assert all(b.tokens == b.padded_tokens and b.attention_mask is None for b in batches)
    first = batches[0]
    assert first.cu_seq_lens is not None and int(first.cu_seq_lens[-1]) == first.tokens
    # positions restart at every sequence start, labels never cross a boundary
    starts = first.cu_seq_lens[:-1].long()
    assert bool((first.position_ids[0, starts] == 0).all())
    assert bool((first.labels[0, starts] == IGNORE).all())


def test_modes_give_the_same_loss_and_gradient() -> None:
    varlen.register()
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(qwen3_config("tiny", vocab_size=64, pad_token_id=0, eos_token_id=1))
    peft = add_lora(model, LORA, gradient_checkpointing=False)
    with torch.no_grad():  # B starts at zero; make the adapter matter
        for name, p in peft.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.05)
    loss_module = TargetTokenLoss(peft)
    data = examples(12, seed=3)
    results = {}
    for mode in MODES:
        model.config._attn_implementation = varlen.NAME if mode == "padding_free" else "sdpa"
        peft.zero_grad()
        total = sum(loss_module(**batch_inputs(b)) for b in micro_batches(data, mode, 150, 0))
        assert isinstance(total, torch.Tensor)
        total.backward()
        grads = torch.cat([p.grad.flatten() for p in peft.parameters() if p.grad is not None])
        results[mode] = (float(total.detach()), grads)
    loss, grads = results["padded"]
    for mode in ("length_grouped", "padding_free"):
        assert results[mode][0] == pytest.approx(loss, rel=1e-5)
        torch.testing.assert_close(results[mode][1], grads, rtol=1e-4, atol=1e-6)


def test_step_plan_is_a_function_of_seed_and_step() -> None:
    epoch = [i for step in range(4) for i in step_examples(step, 30, 8, seed=1)]
    assert sorted(epoch) == list(range(30))  # 4 steps of 8 cover an epoch of 30 once
    assert step_examples(5, 30, 8, seed=1) == step_examples(5, 30, 8, seed=1)
    assert step_examples(0, 30, 8, seed=1) != step_examples(4, 30, 8, seed=1)  # next epoch
    assert step_examples(0, 30, 8, seed=1) != step_examples(0, 30, 8, seed=2)


def test_every_process_gets_work_when_a_step_is_short() -> None:
    # permaug-sized data: 15,410 examples in steps of 16 leave 2 for the last step of an epoch
    n, batch_size, world = 15_410, 16, 4
    data = examples(40)  # step_examples only indexes; a few short examples stand for them all
    pool = [data[i % len(data)] for i in range(n)]
    last = steps_per_epoch(n, batch_size) - 1
    for step in (0, last):
        chosen = step_examples(step, n, batch_size, seed=0)
        shares = [rank_share(pool, chosen, r, world, "padded", 4096, 0) for r in range(world)]
        assert all(share.batches for share in shares)  # every process runs a backward
        assert [s.dummy for s in shares] == (
            [False] * 4 if step == 0 else [False, False, True, True]
        )
        real = sum(share.target_tokens for share in shares)
        assert real == sum(pool[i].target_tokens for i in chosen)
        assert all(s.target_tokens == 0 for s in shares if s.dummy)


def test_a_stand_in_keeps_the_gradient_of_one_process() -> None:
    torch.manual_seed(0)
    model = Qwen3ForCausalLM(qwen3_config("tiny", vocab_size=64, pad_token_id=0, eos_token_id=1))
    peft = add_lora(model, LORA, gradient_checkpointing=False)
    with torch.no_grad():
        for name, p in peft.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.05)
    loss_module = TargetTokenLoss(peft)
    params = [p for p in peft.parameters() if p.requires_grad]
    data = examples(10, seed=5)
    chosen = step_examples(2, len(data), 4, seed=0)  # the last step of the epoch: 2 examples
    assert len(chosen) == 2

    def gradients(world: int) -> list[torch.Tensor]:
        """Per process: the loop's backward of its share (as DDP would see it, before the mean)."""
        shares = [rank_share(data, chosen, r, world, "padded", 150, 0) for r in range(world)]
        global_targets = torch.tensor(float(sum(s.target_tokens for s in shares)))
        out = []
        for share in shares:
            peft.zero_grad()
            for batch in share.batches:
                (
                    loss_module(**batch_inputs(batch)) * share.loss_scale(world, global_targets)
                ).backward()
            assert all(p.grad is not None for p in params)  # in DDP's all-reduce, like the others
            out.append(torch.cat([p.grad.flatten() for p in params if p.grad is not None]))
        return out

    single = gradients(1)[0]
    per_process = gradients(3)  # process 2 has no example of the step
    assert float(per_process[2].abs().sum()) == 0.0
    torch.testing.assert_close(torch.stack(per_process).mean(0), single, rtol=1e-4, atol=1e-7)
    assert float(single.abs().sum()) > 0
