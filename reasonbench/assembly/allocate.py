"""Exact quota arithmetic: units to splits, cases to units, case classes to units.

Case classes: ``stable``, ``changed`` (unambiguous receipt) and ``ambiguous`` (a changed case whose
receipt has more than one set). Global totals are apportioned to (split, stratum) cells by the
largest-remainder method, so the sums are exact by construction.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence

CLASSES: tuple[str, ...] = ("ambiguous", "changed", "stable")


class QuotaError(ValueError):
    """A quota that cannot be met; the message names the split, stratum and class."""


def largest_remainder(total: int, weights: Sequence[int]) -> list[int]:
    """Integers proportional to ``weights`` summing exactly to ``total`` (ties to the first)."""
    weight_sum = sum(weights)
    if weight_sum == 0:
        if total:
            raise QuotaError(f"cannot apportion {total} over zero weight")
        return [0] * len(weights)
    exact = [total * w / weight_sum for w in weights]
    shares = [int(e) for e in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares


def even_split(total: int, parts: int) -> list[int]:
    """``total`` cases over ``parts`` units, the first ones getting one more."""
    if parts == 0:
        return []
    base, extra = divmod(total, parts)
    return [base + (i < extra) for i in range(parts)]


def assign_units(
    unit_ids: Sequence[str], counts: dict[str, int], seed: int, stratum: str
) -> dict[str, list[str]]:
    """A seeded shuffle of the units, sliced into splits in the given order."""
    needed = sum(counts.values())
    if needed > len(unit_ids):
        raise QuotaError(
            f"{stratum}: the splits need {needed} units but the stratum has {len(unit_ids)}"
        )
    shuffled = sorted(unit_ids)
    random.Random(f"{seed}:assign:{stratum}").shuffle(shuffled)
    out: dict[str, list[str]] = {}
    start = 0
    for split, count in counts.items():
        out[split] = sorted(shuffled[start : start + count])
        start += count
    return out


def _fill(
    total: int, sizes: list[int], caps: list[int], floors: list[int], where: str
) -> list[int]:
    """Distribute ``total`` over units, floors first, then to the unit least filled relative to
    its size (heap, ties by index), never beyond ``caps``."""
    take = list(floors)
    remaining = total - sum(take)
    if remaining < 0:
        raise QuotaError(f"{where}: at least {sum(take)} needed, quota is {total}")
    heap = [(take[i] / sizes[i], i) for i in range(len(sizes)) if sizes[i] and take[i] < caps[i]]
    heapq.heapify(heap)
    while remaining:
        if not heap:
            raise QuotaError(f"{where}: short by {remaining} cases (candidate pools exhausted)")
        _, i = heapq.heappop(heap)
        take[i] += 1
        remaining -= 1
        if take[i] < caps[i]:
            heapq.heappush(heap, (take[i] / sizes[i], i))
    return take


def class_counts(
    sizes: list[int], available: list[dict[str, int]], quota: dict[str, int], where: str
) -> list[dict[str, int]]:
    """Per unit, how many cases of each class to take so every unit gets exactly its size and
    every class exactly its quota, within what each unit's candidate pool holds."""
    a = [av["ambiguous"] for av in available]
    b = [av["changed"] for av in available]
    s = [av["stable"] for av in available]
    cap_x = [min(a[i], sizes[i]) for i in range(len(sizes))]
    floor_x = [max(0, sizes[i] - s[i] - b[i]) for i in range(len(sizes))]
    if any(f > c for f, c in zip(floor_x, cap_x, strict=True)):
        raise QuotaError(f"{where}: a unit's candidate pool is smaller than its case count")
    x = _fill(quota["ambiguous"], sizes, cap_x, floor_x, f"{where} ambiguous")
    rest = [sizes[i] - x[i] for i in range(len(sizes))]
    floor_z = [max(0, rest[i] - b[i]) for i in range(len(sizes))]
    cap_z = [min(s[i], rest[i]) for i in range(len(sizes))]
    z = _fill(quota["stable"], rest, cap_z, floor_z, f"{where} stable")
    return [
        {"ambiguous": x[i], "changed": rest[i] - z[i], "stable": z[i]} for i in range(len(sizes))
    ]
