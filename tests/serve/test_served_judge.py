"""The ``openai`` judge on the real tiny server: the benchmark prompt wrapped in the instruction
and few-shot examples, raw output kept, strict parser fed the trimmed answer, seeds for runs."""

from __future__ import annotations

from pathlib import Path

from reasonbench.judges import Judge, instruction, make_judge
from reasonbench.targets.trim import trim_answer
from tests.serve.servers import TinyServer


def judge_args(server: TinyServer, model: Path, cache: Path, **kw: object) -> dict[str, object]:
    return {
        "name": "tiny-served",
        "base_url": server.base_url,
        "model": str(model),
        "cache_dir": str(cache),
        "decoding": {"max_new_tokens": 4},
        "retry": {"backoff_s": 0.01, "max_backoff_s": 0.05},
        **kw,
    }


def test_chat_judge_with_fewshot(
    server: TinyServer, served_model: Path, small_bench: Path, prompts: list[str], tmp_path: Path
) -> None:
    args = judge_args(server, served_model, tmp_path, num_fewshot=2, data_dir=str(small_bench))
    judge = make_judge("openai", **args)
    assert isinstance(judge, Judge) and not judge.sampling and judge.target == "direct_receipt"
    messages = judge.inputs(prompts[:1])[0]
    assert messages[0] == {"role": "system", "content": instruction("direct_receipt")}
    assert [m["role"] for m in messages[1:]] == ["user", "assistant"] * 2 + ["user"]
    assert messages[-1]["content"] == prompts[0]
    replies = judge.replies(prompts[:2], seed=0)
    assert judge.generate(prompts[:2], seed=0) == [
        trim_answer(r.raw, "direct_receipt") for r in replies
    ]
    assert judge.client.usage.fetched == 2 and judge.client.usage.cached == 2
    info = judge.describe()
    assert info["endpoint"]["model"] == str(served_model) and len(info["fewshot_ids"]) == 2


def test_completions_judge_sends_plain_text_and_samples_by_seed(
    server: TinyServer, served_model: Path, prompts: list[str], tmp_path: Path
) -> None:
    decoding = {"sample": True, "temperature": 1.5, "max_new_tokens": 6}
    judge = make_judge(
        "openai", **judge_args(server, served_model, tmp_path, api="completions",
                               decoding=decoding, concurrency=1, trim=False)
    )  # fmt: skip
    assert judge.sampling
    text = judge.inputs(prompts[:1])[0]
    assert text.startswith(instruction("direct_receipt")) and text.endswith("Answer:\n")
    runs = [judge.generate(prompts[:2], seed=s) for s in range(3)]
    assert len({tuple(r) for r in runs}) > 1  # run r sends seed r: jitter is measurable
    assert judge.client.usage.fetched == 6
