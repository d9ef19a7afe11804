"""Load a directory of prediction files and validate it against the benchmark.

Refuses — with a message naming the problem — a file without records, unknown example ids,
duplicates, a (method, seed, split) that misses examples of its split, mixed schema versions,
truncated files and any record the caller's ``check`` rejects (``file:line: problem``). Never drops
rows silently.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from reasonbench.predictions.io import PredictionFileError, read_predictions
from reasonbench.predictions.record import PredictionRecord

SHOW = 5


def prediction_files(directory: Path) -> list[Path]:
    if not directory.is_dir():
        raise PredictionFileError(f"prediction directory {directory} not found")
    files = sorted([*directory.rglob("*.jsonl"), *directory.rglob("*.parquet")])
    if not files:
        raise PredictionFileError(f"no *.jsonl or *.parquet prediction files under {directory}")
    return files


def _examples(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:SHOW])
    return shown + (f" and {len(ids) - SHOW} more" if len(ids) > SHOW else "")


Check = Callable[[PredictionRecord], str | None]
"""A record -> the problem with it (one line), or ``None``."""


def _read(path: Path, check: Check | None) -> list[PredictionRecord]:
    records = read_predictions(path)
    if not records:
        raise PredictionFileError(f"{path}: no prediction records (an empty file)")
    if check is not None:
        for number, record in enumerate(records, start=1):
            problem = check(record)
            if problem:
                raise PredictionFileError(f"{path}:{number}: {problem}")
    return records


def load_predictions(
    directory: Path, split_ids: Mapping[str, Sequence[str]], check: Check | None = None
) -> list[PredictionRecord]:
    """All records under ``directory``, validated against ``split_ids`` (split → example ids)
    and, record by record, by ``check``."""
    records = [r for path in prediction_files(directory) for r in _read(path, check)]
    versions = sorted({r.schema_version for r in records})
    if len(versions) > 1:
        raise PredictionFileError(f"mixed schema versions {versions} in {directory}")
    groups: dict[tuple[str, int, str], list[PredictionRecord]] = defaultdict(list)
    for r in records:
        if r.split not in split_ids:
            raise PredictionFileError(f"{r.method} seed {r.seed}: unknown split {r.split!r}")
        groups[(r.method, r.seed, r.split)].append(r)
    for (method, seed, split), rows in sorted(groups.items()):
        where = f"{method} seed {seed} split {split}"
        expected = set(split_ids[split])
        ids = [r.example_id for r in rows]
        unknown = sorted(set(ids) - expected)
        if unknown:
            raise PredictionFileError(f"{where}: unknown example id(s) {_examples(unknown)}")
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        if dupes:
            raise PredictionFileError(f"{where}: duplicate example id(s) {_examples(dupes)}")
        missing = sorted(expected - set(ids))
        if missing:
            raise PredictionFileError(
                f"{where}: {len(missing)} example(s) of the split missing, e.g. {_examples(missing)}"
            )
    return records
