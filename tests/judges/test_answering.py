"""The one answering path (``ask_judge``, behind ``evaluate`` and the Judge Card): a local model
judge is asked in fixed chunks, each cached when done, so a killed run resumes where it stopped
and a rerun decodes nothing; the seed and (for sampling) the chunk are in the key."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from reasonbench.baselines import load_rows
from reasonbench.judges import answering, make_judge
from reasonbench.judges.answering import Fingerprinted, Output, ask_judge
from reasonbench.models.tiny import build_tiny


class Counting:
    """The real tiny judge, counting the prompts it decodes (and able to die mid-run)."""

    def __init__(self, judge: Any, die_after: int | None = None) -> None:
        self.inner, self.decoded, self.die_after = judge, 0, die_after
        self.name, self.target, self.sampling = judge.name, judge.target, judge.sampling

    def fingerprint(self) -> dict[str, Any]:
        return dict(self.inner.fingerprint())

    def answers(self, prompts: Sequence[str], seed: int = 0) -> list[Output]:
        if self.die_after is not None and self.decoded >= self.die_after:
            raise KeyboardInterrupt  # a kill between two chunks
        self.decoded += len(prompts)
        return list(self.inner.answers(prompts, seed))

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        return [a.text for a in self.answers(prompts, seed)]


@pytest.fixture(scope="module")
def tiny_judge(small_bench: Path, tiny_cache: Path) -> Any:
    path = build_tiny(small_bench, tiny_cache)
    return make_judge(
        "hf_zero_shot", name="tiny", path=str(path), prompt_style="plain", batch_size=4,
        device="cpu", dtype="fp32", decoding={"max_new_tokens": 3},
    )  # fmt: skip


@pytest.fixture(scope="module")
def prompts(small_bench: Path) -> list[str]:
    return [r["prompt"] for r in load_rows(small_bench, with_cardinality=False)["shift_depth"]][:8]


def test_killed_run_resumes_from_the_last_chunk(
    tiny_judge: Any, prompts: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answering, "CHUNK", 4)
    assert isinstance(tiny_judge, Fingerprinted)
    reference = ask_judge(tiny_judge, prompts, 1, 0, None)
    dying = Counting(tiny_judge, die_after=4)
    with pytest.raises(KeyboardInterrupt):
        ask_judge(dying, prompts, 1, 0, tmp_path)
    resumed = Counting(tiny_judge)
    assert ask_judge(resumed, prompts, 1, 0, tmp_path) == reference
    assert resumed.decoded == len(prompts) - 4  # the first chunk came from the cache
    again = Counting(tiny_judge)
    assert ask_judge(again, prompts, 1, 0, tmp_path) == reference and again.decoded == 0
    assert all(a[0].raw and a[0].text == a[0].text.strip() for a in reference.values())


def test_each_seed_is_asked_and_sampling_keys_hold_the_chunk(
    tiny_judge: Any, prompts: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answering, "CHUNK", 4)
    greedy = Counting(tiny_judge)
    twice = ask_judge(greedy, prompts[:4], 2, 0, tmp_path)
    assert greedy.decoded == 8  # run 2 (seed 1) is decoded again: jitter verified, not assumed
    assert all(len(set(a)) == 1 for a in twice.values())
    hot = make_judge(
        "hf_zero_shot", name="hot", path=str(tiny_judge.model.config.name_or_path),
        prompt_style="plain", batch_size=4, device="cpu", dtype="fp32", trim=False,
        decoding={"sample": True, "temperature": 1.5, "max_new_tokens": 4},
    )  # fmt: skip
    first = ask_judge(Counting(hot), prompts[:4], 1, 3, tmp_path)
    same_chunk = Counting(hot)
    assert ask_judge(same_chunk, prompts[:4], 1, 3, tmp_path) == first
    assert same_chunk.decoded == 0
    other_chunk = Counting(hot)
    ask_judge(other_chunk, prompts[1:5], 1, 3, tmp_path)  # another chunk: another random stream
    assert other_chunk.decoded == 4
