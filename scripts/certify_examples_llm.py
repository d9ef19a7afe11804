"""Run the LLM-judge worked example of docs/certify.md: receipts for why a judge's verdict changed
when its rubric (and instructions) were edited, the judge being the project's tiny model behind a
real ``transformers serve`` on 127.0.0.1, started here and stopped at the end.

1. ``llm-greedy``: greedy decoding, 3 runs per hybrid: the random-init model answers gibberish,
   so every case is uncertified on an ``unparsable`` answer (and the greedy runs agree);
2. ``llm-sampled``: temperature 1, 3 runs per hybrid (run r sends seed 2 + r), the answer
   steered towards the three label tokens (a +6 logit bias): the runs disagree, so receipts
   that depend on those cells are uncertified as ``unstable``. The tiny model's sampled answer
   depends on the seed far more than on the prompt; seed 2 is the draw under which the edited
   rubric flips one case (with seed 0, run 0 approves every hybrid of every case).

The tiny model is built from the small benchmark (both deterministic; built once under
``--work``). Requests go one at a time (``workers=1``): ``transformers serve`` seeds one global
generator per request, so concurrent sampled requests would not replay their seeds. Each run
writes receipts.jsonl, summary.{json,md,html} and its cache under ``--out``/<name>; a second
invocation sends no request and prints the same.

Usage: python scripts/certify_examples_llm.py --out DIR [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.serve.servers: the loopback server the tests use

from reasonbench.certify import CertifyConfig, run_certify  # noqa: E402

EXAMPLES = Path("data/examples/certify")  # relative to the repository root, as the docs show
LABELS = ("approve", "deny", "refer")
# the tiny tokenizer's ids of " approve", " deny", " refer" (one token each); transformers
# serve's /v1/completions takes no logit_bias, so the bias goes in its generation_config field
LABEL_TOKENS = (386, 368, 365)
STEERED = {"do_sample": True, "sequence_bias": [[[t], 6.0] for t in LABEL_TOKENS]}


def configs(out: Path, base_url: str, model: str) -> dict[str, CertifyConfig]:
    judge = {
        "model": model,
        "api": "completions",
        "template_file": str(EXAMPLES / "expense_judge_prompt.txt"),
    }
    common = {
        "cases": EXAMPLES / "expense_claims.jsonl",
        "adjudicator": f"llm:{base_url}",
        "labels": LABELS,
        "repeats": 3,
        "workers": 1,
        "progress": False,
    }
    return {
        "llm-greedy": CertifyConfig(
            out_dir=out / "llm-greedy",
            plugin_options={**judge, "temperature": 0.0, "max_tokens": 8},
            **common,
        ),
        "llm-sampled": CertifyConfig(
            out_dir=out / "llm-sampled",
            plugin_options={
                **judge,
                "temperature": 1.0,
                "max_tokens": 3,
                "seed": 2,
                "extra_body": {"generation_config": json.dumps(STEERED)},
            },
            **common,
        ),
    }


def tiny_model(work: Path) -> Path:
    from reasonbench.models.tiny import build_tiny

    bench = work / "rb"
    if not (bench / "MANIFEST.json").is_file():
        subprocess.run(
            [sys.executable, "-m", "reasonbench", "generate", "benchmark=small",
             f"out_dir={bench}", "progress=false", "workers=1"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    return build_tiny(bench, work / "tiny")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, required=True, help="directory for the two runs")
    parser.add_argument("--work", type=Path, help="benchmark and tiny model (default: OUT/work)")
    args = parser.parse_args()
    out = args.out.resolve()
    work = (args.work or out / "work").resolve()
    os.chdir(ROOT)
    from tests.serve.servers import TinyServer

    model = tiny_model(work)
    server = TinyServer(model, work / "server.log")
    try:
        server.start()
        for name, config in configs(out, server.base_url, str(model)).items():
            summary = run_certify(config)
            print(f"== {name}: {json.dumps(config.plugin_options)}")
            print((config.out_dir / "receipts.jsonl").read_text(encoding="utf-8"), end="")
            run = summary.run
            print(f"-- executed {run.executed if run else '?'} (cached before: "
                  f"{run.cached_before if run else '?'})")  # fmt: skip
            print((config.out_dir / "summary.md").read_text(encoding="utf-8"))
    finally:
        server.close()


if __name__ == "__main__":
    main()
