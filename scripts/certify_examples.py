"""Run the worked examples of docs/certify.md through ``reasonbench.certify`` and print them.

1. ``python``: the refund rule ``data/examples/certify/refund_rules.py:decide`` as a Python
   adjudicator, ``execution=adaptive``;
2. ``python-monotone``: the same rule under ``execution=monotone`` (fewer queries; the rule is
   not monotone on r-103 and r-104: re-asking a sample of the inferred cells catches r-103,
   r-104's receipt stays wrong under the assumption);
3. ``command``: the refund policy as a command (``refund_judge.py``, JSON on stdin, verdict on
   stdout), ``execution=exhaustive``; it exits with status 2 on an unknown item condition.

Each run writes receipts.jsonl, summary.{json,md,html} and its cache under ``--out``/<name>;
a second invocation executes nothing (everything is cached) and prints the same.

Usage: python scripts/certify_examples.py --out DIR
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from reasonbench.certify import CertifyConfig, run_certify

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path("data/examples/certify")  # relative to the repository root, as the docs show
LABELS = ("approve", "deny", "refer")


def configs(out: Path) -> dict[str, CertifyConfig]:
    cases = EXAMPLES / "refunds.jsonl"
    judge = f"command:python3 {EXAMPLES / 'refund_judge.py'}"
    common = {"cases": cases, "labels": LABELS, "progress": False}
    return {
        "python": CertifyConfig(
            adjudicator="python:refund_rules:decide", out_dir=out / "python", **common
        ),
        "python-monotone": CertifyConfig(
            adjudicator="python:refund_rules:decide",
            execution="monotone",
            out_dir=out / "python-monotone",
            **common,
        ),
        "command": CertifyConfig(
            adjudicator=judge, execution="exhaustive", out_dir=out / "command", **common
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, required=True, help="directory for the three runs")
    args = parser.parse_args()
    out = args.out.resolve()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT / EXAMPLES))  # makes python:refund_rules:decide importable
    for name, config in configs(out).items():
        summary = run_certify(config)
        print(f"== {name}: {config.adjudicator} (execution={config.execution})")
        print((config.out_dir / "receipts.jsonl").read_text(encoding="utf-8"), end="")
        q = summary.queries
        print(f"-- queries spent {q['spent']} of {q['interior_cells']} interior hybrids")
        print((config.out_dir / "summary.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
