"""The committed CPU receipt predictors (``models/``) against a retrained pair: the same weights
byte for byte, or accuracies within the stated tolerance.

    python scripts/cpu_models.py check runs/cpu models results/predictions   # train_cpu_models.sh

For each target (``cube``, ``direct_receipt``) it compares the retrained run's weights
(``<retrained>/<method>/seed0``) with the committed ones (``<committed>/<method>/seed0``), then
scores both runs' ``test_locked`` records (``<retrained>/predictions/<method>/seed0.jsonl`` and
``<records>/<method>/seed0.jsonl``) as ``reasonbench analyze`` does and prints exact receipt,
endpoint and revised-verdict accuracy side by side. Same weights: the records must be identical. Other weights (another CPU,
another thread count: fp32 kernels round differently and thousands of steps carry the difference
into the weights) may move each accuracy by at most ``TOLERANCE`` points; it exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from reasonbench.analysis.gold import load_gold
from reasonbench.analysis.scoring import score
from reasonbench.predictions.io import read_predictions

TARGETS = ("cube", "direct_receipt")
METHOD = "small_cpu-{target}"
TOLERANCE = 2.0  # accuracy points on test_locked (2,400 examples): two seeds differ more


def weights_sha(run: Path) -> str:
    files = sorted((run / "adapter").glob("*.safetensors"))
    return hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()


def accuracies(records: Path, data_dir: Path) -> dict[str, float]:
    gold = load_gold(data_dir, ("test_locked",))
    rows = [score(gold[r.example_id], r) for r in read_predictions(records) if r.split in gold]
    rows = [s for s in rows if s.gold.split == "test_locked"]
    n = len(rows)
    return {
        "exact receipt": 100 * sum(bool(s.receipt_correct) for s in rows) / n,
        "endpoints": 100 * sum(bool(s.endpoints_correct) for s in rows) / n,
        "revised verdict": 100 * sum(s.verdict_correct for s in rows) / n,
    }


def check(retrained: Path, committed: Path, records: Path, data_dir: Path) -> int:
    failed = 0
    for target in TARGETS:
        method = METHOD.format(target=target)
        runs = [base / method / "seed0" for base in (retrained, committed)]
        same = weights_sha(runs[0]) == weights_sha(runs[1])
        files = [
            retrained / "predictions" / method / "seed0.jsonl",
            records / method / "seed0.jsonl",
        ]
        new, old = (accuracies(f, data_dir) for f in files)
        print(f"{method}: weights {'byte-identical' if same else 'differ'}")
        for key in new:
            delta = new[key] - old[key]
            ok = abs(delta) <= (0.0 if same else TOLERANCE)
            failed += not ok
            print(f"  {key}: retrained {new[key]:.2f} committed {old[key]:.2f} "
                  f"({delta:+.2f}; {'ok' if ok else 'beyond tolerance'})")  # fmt: skip
    print("agree" if not failed else f"{failed} accuracy(ies) beyond {TOLERANCE} points")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="retrained runs against the committed ones")
    c.add_argument("retrained", type=Path)
    c.add_argument("committed", type=Path)
    c.add_argument(
        "records", type=Path, help="the committed prediction records (results/predictions)"
    )
    c.add_argument("--data-dir", type=Path, default=Path("data/reasonbench"))
    args = parser.parse_args()
    return check(args.retrained, args.committed, args.records, args.data_dir)


if __name__ == "__main__":
    sys.exit(main())
