"""The benchmark specification: a validated, typed view of ``conf/benchmark/*.yaml``.

Everything that decides *what* is generated lives in the config (data as data); this module only
checks it and gives it types. The dataclasses nest as the YAML does, so ``to_json`` is the config
itself (it goes into ``MANIFEST.json``) and every section has one reader. Errors name the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from reasonbench.controls import CONTROL_KINDS
from reasonbench.strata.registry import STRATA

__all__ = [
    "SPLITS",
    "Allocation",
    "BenchmarkSpec",
    "CardinalityPart",
    "Controls",
    "Quotas",
    "Shifts",
    "SpecError",
    "spec_from_config",
]

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
class Quotas:
    changed: int  # gold endpoint changes over all main splits (the rest are stable)
    ambiguous: int  # receipt-ambiguous cases, a subset of the changed ones
    min_sizes: tuple[int, ...]  # minimum receipt sizes that must all be present
    ambiguity_weight: dict[str, float]  # per stratum: its share of ambiguous cases per case


@dataclass(frozen=True)
class Controls:
    split: str
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class DepthShift:
    min_depth: int


@dataclass(frozen=True)
class Shifts:
    held_out_operators: dict[str, tuple[str, ...]]  # per stratum, only in shift_operator
    held_out_family: dict[str, str | None]  # per stratum, only in shift_linguistic
    depth: DepthShift  # shift_depth has proof depth >= min_depth, every other split less


@dataclass(frozen=True)
class CardinalityPart:
    from_split: str
    cases: int


@dataclass(frozen=True)
class BenchmarkSpec:
    name: str
    seed: int
    strata: tuple[str, ...]
    splits: dict[str, dict[str, Allocation]]  # split -> stratum -> allocation
    quotas: Quotas
    controls: Controls
    shifts: Shifts
    canonical_order: tuple[str, ...]
    cardinality: dict[str, CardinalityPart]  # "train" / "test"
    frozen_manifest: str | None = None  # the committed manifest of this build, if it is frozen

    @property
    def total_cases(self) -> int:
        return sum(a.cases for per in self.splits.values() for a in per.values())

    def units_needed(self, stratum: str) -> int:
        return sum(per[stratum].units for per in self.splits.values() if stratum in per)

    def to_json(self) -> dict[str, Any]:
        """The config as plain JSON, in the YAML's layout (what ``MANIFEST.json`` records)."""
        out: dict[str, Any] = _plain(asdict(self))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


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


def _strata(data: Mapping[str, Any]) -> tuple[str, ...]:
    strata = tuple(_get(data, "strata", ""))
    for name in strata:
        if name not in STRATA:
            raise SpecError(f"benchmark config: strata: {STRATA.unknown(name)}")
    return strata


def _splits(data: Mapping[str, Any], strata: tuple[str, ...]) -> dict[str, dict[str, Allocation]]:
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
    return splits


def _quotas(data: Mapping[str, Any], strata: tuple[str, ...]) -> Quotas:
    quotas = _get(data, "quotas", "")
    return Quotas(
        changed=_int(_get(quotas, "changed", "quotas."), "quotas.changed"),
        ambiguous=_int(_get(quotas, "ambiguous", "quotas."), "quotas.ambiguous"),
        min_sizes=tuple(_get(quotas, "min_sizes", "quotas.")),
        ambiguity_weight=_weights(quotas.get("ambiguity_weight") or {}, strata),
    )


def _controls(data: Mapping[str, Any]) -> Controls:
    controls = _get(data, "controls", "")
    kinds = tuple(_get(controls, "kinds", "controls."))
    for kind in kinds:
        if kind not in CONTROL_KINDS:
            raise SpecError(f"benchmark config: controls.kinds: {CONTROL_KINDS.unknown(kind)}")
    split = _get(controls, "split", "controls.")
    if split not in SPLITS:
        raise SpecError(f"benchmark config: controls.split {split!r} is not a split")
    return Controls(split, kinds)


def _shifts(data: Mapping[str, Any], strata: tuple[str, ...]) -> Shifts:
    shifts = _get(data, "shifts", "")
    held_ops = shifts.get("held_out_operators") or {}
    held_family = shifts.get("held_out_family") or {}
    depth = _get(shifts, "depth", "shifts.")
    return Shifts(
        held_out_operators={s: tuple(held_ops.get(s) or ()) for s in strata},
        held_out_family={s: held_family.get(s) for s in strata},
        depth=DepthShift(
            _int(_get(depth, "min_depth", "shifts.depth."), "shifts.depth.min_depth", 1)
        ),
    )


def _cardinality(data: Mapping[str, Any]) -> dict[str, CardinalityPart]:
    card = _get(data, "cardinality", "")
    out = {}
    for part in ("train", "test"):
        entry = _get(card, part, "cardinality.")
        source = _get(entry, "from_split", f"cardinality.{part}.")
        if source not in SPLITS:
            raise SpecError(
                f"benchmark config: cardinality.{part}.from_split {source!r} is not a split"
            )
        cases = _int(_get(entry, "cases", f"cardinality.{part}."), f"cardinality.{part}.cases")
        out[part] = CardinalityPart(source, cases)
    return out


def spec_from_config(data: Mapping[str, Any]) -> BenchmarkSpec:
    """Validate a plain mapping (e.g. ``OmegaConf.to_container(cfg.benchmark)``)."""
    strata = _strata(data)
    spec = BenchmarkSpec(
        name=str(_get(data, "name", "")),
        seed=_int(_get(data, "seed", ""), "seed"),
        strata=strata,
        splits=_splits(data, strata),
        quotas=_quotas(data, strata),
        controls=_controls(data),
        shifts=_shifts(data, strata),
        canonical_order=tuple(_get(data, "canonical_order", "")),
        cardinality=_cardinality(data),
        frozen_manifest=_optional_text(data, "frozen_manifest"),
    )
    quotas = spec.quotas
    if quotas.ambiguous > quotas.changed:
        raise SpecError(
            f"impossible quota: quotas.ambiguous ({quotas.ambiguous}) exceeds quotas.changed "
            f"({quotas.changed})"
        )
    if quotas.changed > spec.total_cases:
        raise SpecError(
            f"impossible quota: quotas.changed ({quotas.changed}) exceeds the {spec.total_cases} "
            "cases of all splits"
        )
    return spec
