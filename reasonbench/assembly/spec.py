"""The benchmark specification: a validated, typed view of ``conf/benchmark/*.yaml``.

Everything that decides *what* is generated lives in the config (data as data); this module only
checks it and gives it types. Errors name the offending key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.controls import CONTROL_KINDS
from reasonbench.strata.registry import STRATA

SPLITS: tuple[str, ...] = (
    "train",
    "calibration",
    "dev",
    "test_locked",
    "shift_operator",
    "shift_linguistic",
    "shift_depth",
)


class SpecError(ValueError):
    """A bad benchmark configuration; the message names the key."""


@dataclass(frozen=True)
class Allocation:
    units: int
    cases: int


@dataclass(frozen=True)
class BenchmarkSpec:
    name: str
    seed: int
    strata: tuple[str, ...]
    splits: dict[str, dict[str, Allocation]]  # split -> stratum -> allocation
    changed: int
    ambiguous: int
    min_sizes: tuple[int, ...]
    ambiguity_weight: dict[str, float]
    control_split: str
    control_kinds: tuple[str, ...]
    held_out_operators: dict[str, tuple[str, ...]]
    held_out_family: dict[str, str | None]
    min_depth: int
    canonical_order: tuple[str, ...]
    cardinality: dict[str, tuple[str, int]]  # "train"/"test" -> (from_split, cases)
    frozen_manifest: str | None = None  # the committed manifest of this build, if it is frozen

    @property
    def total_cases(self) -> int:
        return sum(a.cases for per in self.splits.values() for a in per.values())

    def units_needed(self, stratum: str) -> int:
        return sum(per[stratum].units for per in self.splits.values() if stratum in per)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seed": self.seed,
            "strata": list(self.strata),
            "splits": {
                s: {k: {"units": a.units, "cases": a.cases} for k, a in per.items()}
                for s, per in self.splits.items()
            },
            "quotas": {
                "changed": self.changed,
                "ambiguous": self.ambiguous,
                "min_sizes": list(self.min_sizes),
                "ambiguity_weight": dict(self.ambiguity_weight),
            },
            "controls": {"split": self.control_split, "kinds": list(self.control_kinds)},
            "shifts": {
                "held_out_operators": {k: list(v) for k, v in self.held_out_operators.items()},
                "held_out_family": dict(self.held_out_family),
                "depth": {"min_depth": self.min_depth},
            },
            "canonical_order": list(self.canonical_order),
            "cardinality": {
                k: {"from_split": s, "cases": n} for k, (s, n) in self.cardinality.items()
            },
            "frozen_manifest": self.frozen_manifest,
        }


def _get(data: Mapping[str, Any], key: str, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise SpecError(f"benchmark config: '{where.rstrip('.')}' must be a mapping")
    if key not in data or data[key] is None:
        raise SpecError(f"benchmark config: missing key '{where}{key}'")
    return data[key]


def _int(value: Any, where: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SpecError(
            f"benchmark config: '{where}' must be an integer >= {minimum}, got {value!r}"
        )
    return value


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise SpecError(f"benchmark config: '{key}' must be a path or null, got {value!r}")
    return value


def _weights(data: Mapping[str, Any], strata: tuple[str, ...]) -> dict[str, float]:
    out = {}
    for name in strata:
        value = data.get(name, 1.0)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise SpecError(
                f"benchmark config: 'quotas.ambiguity_weight.{name}' must be a number > 0"
            )
        out[name] = float(value)
    return out


def spec_from_config(data: Mapping[str, Any]) -> BenchmarkSpec:
    """Validate a plain mapping (e.g. ``OmegaConf.to_container(cfg.benchmark)``)."""
    strata = tuple(_get(data, "strata", ""))
    for name in strata:
        if name not in STRATA:
            raise SpecError(f"benchmark config: strata: {STRATA.unknown(name)}")
    splits_in = _get(data, "splits", "")
    unknown = sorted(set(splits_in) - set(SPLITS))
    if unknown:
        raise SpecError(f"benchmark config: unknown split(s) {unknown}; splits are {list(SPLITS)}")
    splits: dict[str, dict[str, Allocation]] = {}
    for split in SPLITS:
        per = _get(splits_in, split, "splits.")
        splits[split] = {}
        for stratum in strata:
            where = f"splits.{split}.{stratum}"
            alloc = _get(per, stratum, f"splits.{split}.")
            units = _int(_get(alloc, "units", where + "."), where + ".units")
            cases = _int(_get(alloc, "cases", where + "."), where + ".cases")
            if cases and not units:
                raise SpecError(f"benchmark config: '{where}' asks for {cases} cases from 0 units")
            splits[split][stratum] = Allocation(units, cases)
    quotas = _get(data, "quotas", "")
    controls = _get(data, "controls", "")
    shifts = _get(data, "shifts", "")
    kinds = tuple(_get(controls, "kinds", "controls."))
    for kind in kinds:
        if kind not in CONTROL_KINDS:
            raise SpecError(f"benchmark config: controls.kinds: {CONTROL_KINDS.unknown(kind)}")
    control_split = _get(controls, "split", "controls.")
    if control_split not in SPLITS:
        raise SpecError(f"benchmark config: controls.split {control_split!r} is not a split")
    card = _get(data, "cardinality", "")
    cardinality = {}
    for part in ("train", "test"):
        entry = _get(card, part, "cardinality.")
        source = _get(entry, "from_split", f"cardinality.{part}.")
        if source not in SPLITS:
            raise SpecError(
                f"benchmark config: cardinality.{part}.from_split {source!r} is not a split"
            )
        cardinality[part] = (
            source,
            _int(_get(entry, "cases", f"cardinality.{part}."), f"cardinality.{part}.cases"),
        )
    held_ops = shifts.get("held_out_operators") or {}
    held_family = shifts.get("held_out_family") or {}
    spec = BenchmarkSpec(
        name=str(_get(data, "name", "")),
        seed=_int(_get(data, "seed", ""), "seed"),
        strata=strata,
        splits=splits,
        changed=_int(_get(quotas, "changed", "quotas."), "quotas.changed"),
        ambiguous=_int(_get(quotas, "ambiguous", "quotas."), "quotas.ambiguous"),
        min_sizes=tuple(_get(quotas, "min_sizes", "quotas.")),
        ambiguity_weight=_weights(quotas.get("ambiguity_weight") or {}, strata),
        control_split=control_split,
        control_kinds=kinds,
        held_out_operators={s: tuple(held_ops.get(s) or ()) for s in strata},
        held_out_family={s: held_family.get(s) for s in strata},
        min_depth=_int(
            _get(_get(shifts, "depth", "shifts."), "min_depth", "shifts.depth."),
            "shifts.depth.min_depth",
            1,
        ),
        canonical_order=tuple(_get(data, "canonical_order", "")),
        cardinality=cardinality,
        frozen_manifest=_optional_text(data, "frozen_manifest"),
    )
    if spec.ambiguous > spec.changed:
        raise SpecError(
            f"impossible quota: quotas.ambiguous ({spec.ambiguous}) exceeds quotas.changed ({spec.changed})"
        )
    if spec.changed > spec.total_cases:
        raise SpecError(
            f"impossible quota: quotas.changed ({spec.changed}) exceeds the {spec.total_cases} cases of all splits"
        )
    return spec
