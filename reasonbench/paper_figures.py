"""The paper's headline figures (``data/paper_figures.yaml``), for side-by-side reporting only."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

PATH = Path(__file__).resolve().parents[1] / "data" / "paper_figures.yaml"
SECTIONS = (
    "dataset",
    "surface",
    "primary",
    "comparisons",
    "separation",
    "consistency",
    "augmentation",
    "repairs",
    "cardinality",
    "selective",
    "footnotes",
)


@lru_cache(maxsize=1)
def paper_figures() -> dict[str, Any]:
    if not PATH.is_file():
        raise FileNotFoundError(f"{PATH} is missing (reasonbench runs from a source checkout)")
    data = yaml.safe_load(PATH.read_text(encoding="utf-8"))
    missing = [s for s in SECTIONS if s not in data]
    if missing:
        raise ValueError(f"{PATH}: missing section(s) {missing}")
    return dict(data)
