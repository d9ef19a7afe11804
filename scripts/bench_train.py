"""Training and prediction throughput of the LoRA predictors.

Training: the same optimizer steps (same examples, same model, same run) laid out padded and
padding-free, interleaved step by step so machine noise hits both alike; prints real (non-pad)
training tokens/s of each and the ratio. Prediction: batched greedy decoding of cube prompts,
examples/s. Default: the tiny model on CPU. ``scripts/gpu_throughput.sh`` runs it with a random-init
Qwen3-1.7B architecture in bf16 on a GPU. ``--model small_cpu`` measures the main job's CPU receipt
predictor (its architecture, its digit-splitting tokenizer, LoRA with trained embeddings and
norms: lora=scratch) on the paper build.

    python scripts/bench_train.py                      # tiny, CPU, a small benchmark in /tmp
    python scripts/bench_train.py --model small_cpu --data-dir data/reasonbench --threads 1
    python scripts/bench_train.py --arch qwen3_1.7b --device cuda --dtype bf16 --predict 2400
    python scripts/bench_train.py --model small_cpu --threads 1 --compare-kernels

``--cpu-kernels`` is train's and predict's key (reasonbench/models/kernels.py, default portable).
``--compare-kernels`` measures both settings, each in its own process (the kernels are fixed
per process), portable then native then portable then native, and prints each setting's rates
(the mean of its two runs) beside the other's: native is the baseline portable is measured against.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import torch
import transformers

from reasonbench.infer.decode import greedy_decode
from reasonbench.models import DTYPES, encode_prompt, encode_target, join, qwen3_config, varlen
from reasonbench.models.kernels import KERNEL_SETTINGS, use_kernels
from reasonbench.models.tiny import build_tiny
from reasonbench.models.tuning import get_tuning
from reasonbench.train.batching import micro_batches
from reasonbench.train.data import read_split, training_examples
from reasonbench.train.lora import TargetTokenLoss, batch_inputs
from reasonbench.train.steps import step_examples

LORA = {
    "r": 16,
    "alpha": 32,
    "dropout": 0.05,
    "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
}


def benchmark_dir(path: str | None) -> Path:
    if path:
        return Path(path)
    out = Path("/tmp/reasonbench-bench-small")
    if not (out / "MANIFEST.json").is_file():
        subprocess.run(
            [sys.executable, "-m", "reasonbench", "generate", "benchmark=small",
             f"out_dir={out}", "progress=false", "cardinality=false"],
            check=True,
        )  # fmt: skip
    return out


def build_model(args: argparse.Namespace, data_dir: Path) -> tuple[Any, Any]:
    from transformers import AutoTokenizer, Qwen3ForCausalLM

    tiny = build_tiny(data_dir, Path(args.cache_dir), split_digits=args.split_digits)
    tokenizer = AutoTokenizer.from_pretrained(tiny)
    # tiny and small_cpu are built from the benchmark; a real architecture keeps its vocabulary
    # size with random weights: the same cost
    config = qwen3_config(args.arch, len(tokenizer), tokenizer.pad_token_id, tokenizer.eos_token_id)
    varlen.register()
    torch.manual_seed(0)
    with torch.device(args.device):
        model = Qwen3ForCausalLM(config).to(DTYPES[args.dtype])
    return model, tokenizer


def set_attention(model: Any, name: str) -> None:
    # padded rows use the configured kernel, padding-free rows the variable-length one
    model.config._attn_implementation = name  # one config object, shared by every layer


def bench_training(
    args: argparse.Namespace, model: Any, tokenizer: Any, data_dir: Path
) -> dict[str, Any]:
    examples = training_examples(data_dir, "cube", {"train_split": "train"}, 0)
    encoded = [
        join(encode_prompt(tokenizer, e.prompt), encode_target(tokenizer, e.target), 4096)
        for e in examples
    ]
    tuning = get_tuning(args.tuning)
    peft = tuning.prepare(model, LORA, args.gradient_checkpointing)
    loss_module = TargetTokenLoss(peft, tuning.causal_lm).train()
    params = [p for p in peft.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    autocast = torch.autocast(args.device, dtype=torch.bfloat16, enabled=args.dtype == "bf16")
    first = [encoded[i] for i in step_examples(0, len(encoded), args.batch_size, 0)]
    agreement = layout_losses(args, model, loss_module, first, tokenizer.pad_token_id, autocast)
    totals = {
        mode: {"tokens": 0, "padded": 0, "seconds": 0.0} for mode in ("padded", "padding_free")
    }
    for step in range(args.warmup + args.steps):
        chosen = [encoded[i] for i in step_examples(step, len(encoded), args.batch_size, 0)]
        for mode in totals:
            batches = micro_batches(chosen, mode, args.micro_batch_tokens, tokenizer.pad_token_id)
            set_attention(model, varlen.NAME if mode == "padding_free" else args.attn)
            sync(args.device)
            start = time.perf_counter()
            targets = sum(b.target_tokens for b in batches)
            for batch in batches:
                with autocast:
                    loss = loss_module(**batch_inputs(batch.to(args.device))) / targets
                loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            sync(args.device)
            if step >= args.warmup:
                totals[mode]["seconds"] += time.perf_counter() - start
                totals[mode]["tokens"] += sum(b.tokens for b in batches)
                totals[mode]["padded"] += sum(b.padded_tokens for b in batches)
    rates = {m: t["tokens"] / t["seconds"] for m, t in totals.items()}
    return {
        "examples_per_step": args.batch_size,
        "steps": args.steps,
        "tokens_per_s": rates,
        "padding_share": {m: 1 - t["tokens"] / t["padded"] for m, t in totals.items()},
        "ratio": rates["padding_free"] / rates["padded"],
        "loss_by_layout": agreement,
        "loss_relative_difference": abs(agreement["padding_free"] - agreement["padded"])
        / agreement["padded"],
    }


def layout_losses(
    args: argparse.Namespace,
    model: Any,
    loss_module: Any,
    examples: list[Any],
    pad_id: int,
    autocast: Any,
) -> dict[str, float]:
    """The mean target-token loss of one step's examples, padded and padding-free, with the same
    weights and no dropout: the variable-length kernel must give what padded SDPA gives."""
    loss_module.eval()
    out = {}
    with torch.no_grad():
        for mode in ("padded", "padding_free"):
            batches = micro_batches(examples, mode, args.micro_batch_tokens, pad_id)
            set_attention(model, varlen.NAME if mode == "padding_free" else args.attn)
            total = 0.0
            for batch in batches:
                with autocast:
                    total += float(loss_module(**batch_inputs(batch.to(args.device))))
            out[mode] = total / sum(b.target_tokens for b in batches)
    loss_module.train()
    return out


def sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def bench_prediction(
    args: argparse.Namespace, model: Any, tokenizer: Any, data_dir: Path
) -> dict[str, Any]:
    """Greedy decoding of cube prompts, longest first in batches, two ways side by side, batch
    by batch (machine noise hits both alike): the baseline, every phase on one thread (what
    ``predict threads=1`` runs), and the prompt pass on ``--prefill-threads`` with the one-token
    steps on one (``predict threads=N``). Both must emit the same bytes: every token and every
    log-probability."""
    rows = read_split(data_dir, "test_locked", ["prompt", "target_cube"])
    prompts = [encode_prompt(tokenizer, rows[i % len(rows)]["prompt"]) for i in range(args.predict)]
    # a random-init model never emits end-of-sequence: decode exactly as many tokens as the
    # longest gold cube target (plus end-of-sequence), what a trained model emits
    budget = args.max_new_tokens or max(
        len(encode_target(tokenizer, r["target_cube"])) for r in rows
    )
    order = sorted(range(len(prompts)), key=lambda i: -len(prompts[i]))
    model.eval()
    seconds = {"baseline": 0.0, "prefill": 0.0}
    same = True
    for at in range(0, len(order), args.predict_batch_size):
        batch = [prompts[i] for i in order[at : at + args.predict_batch_size]]
        out = {}
        for way, threads, steps in (
            ("baseline", args.threads or 1, None),
            ("prefill", args.prefill_threads, args.threads or 1),
        ):
            torch.set_num_threads(threads)
            sync(args.device)
            start = time.perf_counter()
            with torch.autocast(args.device, dtype=torch.bfloat16, enabled=args.dtype == "bf16"):
                out[way] = greedy_decode(
                    model, batch, tokenizer.pad_token_id, -1, budget, args.device, steps
                )
            sync(args.device)
            seconds[way] += time.perf_counter() - start
        same = same and out["baseline"] == out["prefill"]
    torch.set_num_threads(args.threads or 1)
    return {
        "examples": len(prompts),
        "batch_size": args.predict_batch_size,
        "max_new_tokens": budget,
        "seconds": seconds["baseline"],
        "examples_per_s": len(prompts) / seconds["baseline"],
        "prefill_threads": args.prefill_threads,
        "prefill_seconds": seconds["prefill"],
        "prefill_examples_per_s": len(prompts) / seconds["prefill"],
        "speedup": seconds["baseline"] / seconds["prefill"],
        "same_bytes": same,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--model",
        choices=["tiny", "small_cpu"],
        help="a preset: small_cpu = --arch small_cpu --tuning lora --split-digits, with the "
        "embeddings and norms trained in full (conf/model/small_cpu.yaml, conf/lora/scratch.yaml)",
    )
    parser.add_argument("--tuning", default="lora", choices=["lora", "full"])
    parser.add_argument("--split-digits", action="store_true", help="one token per digit")
    parser.add_argument("--data-dir", help="a generated benchmark (default: small, built in /tmp)")
    parser.add_argument("--cache-dir", default="data/cache/tiny")
    parser.add_argument(
        "--arch", default="tiny", help="tiny | small_cpu | qwen3_0.6b | qwen3_1.7b (random init)"
    )
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", default="fp32", choices=sorted(DTYPES))
    parser.add_argument("--attn", default="sdpa")
    parser.add_argument("--gradient-checkpointing", action="store_true")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16, help="examples per optimizer step")
    parser.add_argument("--micro-batch-tokens", type=int, default=8192)
    parser.add_argument("--predict", type=int, default=160, help="cube prompts to decode")
    parser.add_argument("--predict-batch-size", type=int, default=32)
    parser.add_argument("--max-new-tokens", type=int, default=None)
    parser.add_argument("--threads", type=int, help="torch CPU threads (default: torch's choice)")
    parser.add_argument(
        "--prefill-threads",
        type=int,
        default=2,
        help="the prompt pass's threads of the second decoding way (predict threads=N), "
        "measured beside the baseline on --threads (default 1) and checked for the same bytes",
    )
    parser.add_argument(
        "--goals", action="store_true", help="check the GPU goals (docs/training.md)"
    )
    parser.add_argument("--cpu-kernels", default="portable", choices=KERNEL_SETTINGS)
    parser.add_argument(
        "--compare-kernels", action="store_true", help="portable against native, see above"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.compare_kernels:
        return compare_kernels()
    kernels = use_kernels(args.cpu_kernels)  # before any kernel runs
    if args.threads:
        torch.set_num_threads(args.threads)
    data_dir = benchmark_dir(args.data_dir)
    if args.model == "small_cpu":  # the preset of conf/model/small_cpu.yaml
        args.arch, args.tuning, args.split_digits = "small_cpu", "lora", True
        LORA["modules_to_save"] = ["embed_tokens", "norm"]  # lora=scratch
    model, tokenizer = build_model(args, data_dir)
    started = time.perf_counter()
    train = bench_training(args, model, tokenizer, data_dir)
    set_attention(model, args.attn)
    predict = bench_prediction(args, model, tokenizer, data_dir)
    result = {
        "arch": args.arch,
        "tuning": args.tuning,
        "device": args.device,
        "dtype": args.dtype,
        "cpu_kernels": kernels,
        "train": train,
        "predict": predict,
        "seconds": time.perf_counter() - started,
        # on CUDA, PyTorch's varlen flash kernel unless it failed (then SDPA per sequence)
        "varlen_kernel": "flash" if args.device == "cuda" and varlen._KERNEL["usable"] else "sdpa",
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
    }
    rates = train["tokens_per_s"]
    print(
        f"{'LoRA' if args.tuning == 'lora' else 'full'} training, {args.arch} {args.dtype} on "
        f"{args.device}, {args.steps} steps x {args.batch_size} examples (same steps in both modes)"
        f"; CPU kernels {kernels['cpu_kernels']} (ATen {kernels['aten']}, MKL {kernels['mkl']})"
    )
    print("| batching | tokens/s | padding share |")
    print("|---|---|---|")
    for mode in ("padded", "padding_free"):
        print(f"| {mode} | {rates[mode]:,.0f} | {train['padding_share'][mode]:.1%} |")
    print(f"| ratio padding-free / padded | {train['ratio']:.2f}x | |")
    losses = train["loss_by_layout"]
    print(
        f"step-0 loss, padded {losses['padded']:.5f} vs padding-free {losses['padding_free']:.5f}"
        f" (relative difference {train['loss_relative_difference']:.1e})"
    )
    print(f"padding-free attention kernel: {result['varlen_kernel']}")
    print(
        f"greedy prediction: {predict['examples']} cube prompts, batch {predict['batch_size']}, "
        f"{predict['max_new_tokens']} new tokens each: baseline (one thread) "
        f"{predict['seconds']:.1f} s, {predict['examples_per_s']:.1f} examples/s; prompt pass on "
        f"{predict['prefill_threads']} threads, steps on one: {predict['prefill_seconds']:.1f} s, "
        f"{predict['prefill_examples_per_s']:.1f} examples/s ({predict['speedup']:.2f}x); "
        f"same bytes: {'yes' if predict['same_bytes'] else 'NO'}"
    )
    if args.goals:
        scaled = predict["seconds"] * 2400 / predict["examples"]
        for name, ok in (
            (
                f"training >= 20,000 tokens/s (padding-free): {rates['padding_free']:,.0f}",
                rates["padding_free"] >= 20_000,
            ),
            (f"padding-free >= 1.4x padded: {train['ratio']:.2f}x", train["ratio"] >= 1.4),
            (
                "padding-free loss = padded loss within 1e-2 (bf16): "
                f"{train['loss_relative_difference']:.1e}",
                train["loss_relative_difference"] <= 1e-2,
            ),
            (f"2,400 cube predictions <= 60 s: {scaled:.1f} s", scaled <= 60),
        ):
            print(f"goal {name}: {'OK' if ok else 'NOT MET'}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    return 0


def compare_kernels() -> int:
    """This command line without --compare-kernels, once per setting and twice each,
    alternating, each in a fresh process; prints the mean rates side by side."""
    import tempfile

    argv = [a for a in sys.argv[1:] if a != "--compare-kernels"]
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in KERNEL_SETTINGS}
    with tempfile.TemporaryDirectory() as tmp:
        for i, setting in enumerate([*KERNEL_SETTINGS, *KERNEL_SETTINGS]):
            out = Path(tmp) / f"{i}.json"
            command = [
                sys.executable,
                __file__,
                *argv,
                "--cpu-kernels",
                setting,
                "--json",
                str(out),
            ]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            runs[setting].append(json.loads(out.read_text()))

    def mean(setting: str, pick: Any) -> float:
        return sum(pick(r) for r in runs[setting]) / len(runs[setting])

    figures = {
        "training tokens/s, padding-free": lambda r: r["train"]["tokens_per_s"]["padding_free"],
        "training tokens/s, padded": lambda r: r["train"]["tokens_per_s"]["padded"],
        "prediction examples/s": lambda r: r["predict"]["examples_per_s"],
        "prediction examples/s, prompt pass on --prefill-threads": lambda r: r["predict"][
            "prefill_examples_per_s"
        ],
    }
    kernels = {k: runs[k][0]["cpu_kernels"] for k in KERNEL_SETTINGS}
    print("| figure | " + " | ".join(f"{k} (ATen {v['aten']})" for k, v in kernels.items())
          + " | portable / native |")  # fmt: skip
    print("|---|---|---|---|")
    for name, pick in figures.items():
        portable, native = mean("portable", pick), mean("native", pick)
        print(f"| {name} | {portable:,.1f} | {native:,.1f} | {portable / native:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
