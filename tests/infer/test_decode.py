"""Batched greedy decoding equals one-at-a-time decoding and transformers' own greedy search."""

from __future__ import annotations

import random

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import GenerationConfig, Qwen3ForCausalLM

from reasonbench.infer.decode import decode, greedy_decode, left_pad, sampler
from reasonbench.models import qwen3_config

PAD, EOS, NEW = 0, 1, 10


@pytest.fixture(scope="module")
def model() -> Qwen3ForCausalLM:
    torch.manual_seed(0)
    return Qwen3ForCausalLM(qwen3_config("tiny", 97, PAD, EOS)).eval()


def prompts(n: int = 6) -> list[list[int]]:
    rng = random.Random(0)
    return [[rng.randrange(2, 97) for _ in range(rng.randint(3, 25))] for _ in range(n)]


def test_left_padding_layout() -> None:
    ids, mask, positions = left_pad([[5, 6, 7], [8]], PAD)
    assert ids.tolist() == [[5, 6, 7], [PAD, PAD, 8]]
    assert mask.tolist() == [[1, 1, 1], [0, 0, 1]]
    assert positions[:, -1].tolist() == [2, 0]


def test_batched_equals_single_and_generate(model: Qwen3ForCausalLM) -> None:
    batch = greedy_decode(model, prompts(), PAD, EOS, NEW)
    for p, gen in zip(prompts(), batch, strict=True):
        (single,) = greedy_decode(model, [p], PAD, EOS, NEW)
        assert gen.token_ids == single.token_ids
        assert gen.logprobs == pytest.approx(single.logprobs, abs=1e-4)
        config = GenerationConfig(
            do_sample=False, max_new_tokens=NEW, pad_token_id=PAD, eos_token_id=EOS
        )
        reference = model.generate(torch.tensor([p]), generation_config=config)
        assert list(gen.token_ids) == reference[0, len(p) :].tolist()


def test_logprobs_are_the_teacher_forced_ones(model: Qwen3ForCausalLM) -> None:
    p = prompts()[2]
    (gen,) = greedy_decode(model, [p], PAD, EOS, NEW)
    full = torch.tensor([p + list(gen.token_ids)])
    with torch.no_grad():
        logp = torch.log_softmax(model(full).logits[0].float(), dim=-1)
    expected = [float(logp[len(p) - 1 + i, t]) for i, t in enumerate(gen.token_ids)]
    assert list(gen.logprobs) == pytest.approx(expected, abs=1e-4)
    assert gen.seq_logprob == pytest.approx(sum(expected), abs=1e-3)


def test_rows_stop_at_their_own_end_of_sequence(model: Qwen3ForCausalLM) -> None:
    ps = prompts()
    first = greedy_decode(model, ps, PAD, EOS, NEW)
    eos = first[0].token_ids[0]  # make row 0's first token the end-of-sequence token
    stopped = greedy_decode(model, ps, PAD, eos, NEW)
    assert stopped[0].finished and stopped[0].token_ids == () and len(stopped[0].logprobs) == 1
    for before, after in zip(first[1:], stopped[1:], strict=True):
        if eos not in before.token_ids:
            assert after.token_ids == before.token_ids and not after.finished
        else:  # cut at its own end-of-sequence, which counts in the sequence probability
            cut = before.token_ids.index(eos)
            assert after.token_ids == before.token_ids[:cut] and after.finished
            assert len(after.logprobs) == cut + 1


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.floats(-8, 8), min_size=2, max_size=12),
    st.floats(0.05, 1.0),
    st.floats(0.2, 3.0),
    st.integers(0, 2**31),
)
def test_sampler_draws_from_the_nucleus(
    logits: list[float], top_p: float, temperature: float, seed: int
) -> None:
    row = torch.tensor([logits])
    probs = torch.softmax(row[0] / temperature, dim=-1)
    order = probs.argsort(descending=True).tolist()
    nucleus, mass = [], 0.0
    for token in order:  # the smallest most-probable set whose mass reaches top_p
        nucleus.append(token)
        mass += float(probs[token])
        if mass >= top_p:
            break
    draw = sampler(temperature, top_p, seed, "cpu")
    tokens = {int(draw(row)[0]) for _ in range(20)}
    # float rounding may admit the next token when the mass lands exactly on top_p
    allowed = set(order[: len(nucleus) + 1])
    assert tokens <= allowed
    again = sampler(temperature, top_p, seed, "cpu")
    replay = sampler(temperature, top_p, seed, "cpu")
    assert [int(again(row)[0]) for _ in range(5)] == [int(replay(row)[0]) for _ in range(5)]


def test_sampled_decoding_replays_its_seed(model: Qwen3ForCausalLM) -> None:
    def run(seed: int) -> list[tuple[int, ...]]:
        gens = decode(model, prompts(), PAD, EOS, NEW, "cpu", sampler(1.5, 0.9, seed, "cpu"))
        return [g.token_ids for g in gens]

    assert run(7) == run(7)
    assert any(run(s) != run(7) for s in (8, 9, 10))
