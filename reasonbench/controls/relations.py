"""Paired-consistency relations between a locked example and its control (spec §3).

One relation for every target: **endpoints plus receipt family**. What execution semantics
guarantee, and so what is checked:

* **permutation** (same states, sources presented in another order), **distractor** (an added
  ground/norm certified to change no cube cell) and **quarantine** (agentic stratum only:
  untrusted text planted in both states' grounds, certified by Q1–Q3 in every cell, docs/are.md):
  the gold cubes are identical, so endpoints and receipt must be identical.
* **inverse** (old and new swapped): cell S of the inverse cube is cell (all − S) of the forward
  cube, so the endpoints swap. For the receipt, *if the forward cube uses exactly two labels and
  its new-verdict cells are upward closed* ("two-label monotone"), the inverse receipt is the
  family of minimal hitting sets of the forward receipt (proof in docs/controls.md). Otherwise
  (``refer`` as a third label, or a non-monotone cube) the inverse receipt is not determined by
  the forward receipt and only the endpoints are checked.

Cube predictions are held to the same relation as every other target (their cells are not part
of it, so the cube is not judged more strictly than a direct receipt). Whether the cells agree is a
separate, cube-only diagnostic: a kind's **cell relation** (:func:`identical_cells`,
:func:`inverse_cells`) says, per cell, whether the control's cell is what the parent's cube
implies; the audit requires it of gold and the analysis reports it for cube predictions.

A relation returns ``None`` when the prediction pair carries nothing it could check (e.g. a
``direct_verdict`` model on an inverse pair).
"""

from __future__ import annotations

from collections.abc import Callable

from reasonbench.core.answer import Answer
from reasonbench.core.cube import Cube
from reasonbench.core.sources import full_mask

__all__ = [
    "CellRelation",
    "identical",
    "identical_cells",
    "inverse_consistent",
    "inverse_cells",
    "inverse_cube",
    "minimal_transversals",
    "two_label_monotone",
]


def minimal_transversals(family: tuple[int, ...], k: int) -> tuple[int, ...]:
    """Inclusion-minimal masks meeting every set of ``family``, in mask-size order."""
    hitting = [m for m in range(1 << k) if all(m & s for s in family)]
    minimal = [m for m in hitting if not any(h != m and h & m == h for h in hitting)]
    return tuple(sorted(minimal, key=lambda m: (bin(m).count("1"), m)))


def two_label_monotone(cube: Cube) -> bool:
    """Only the two endpoint labels occur and the cells carrying the new verdict are upward closed."""
    if not cube.changed or set(cube.verdicts) != {cube.old, cube.new}:
        return False
    new_cells = [m for m in range(1 << cube.k) if cube[m] == cube.new]
    return all(cube[m | (1 << i)] == cube.new for m in new_cells for i in range(cube.k))


def _equal(a: object, b: object) -> bool | None:
    return None if a is None or b is None else a == b


def _all(checks: list[bool | None]) -> bool | None:
    known = [c for c in checks if c is not None]
    return all(known) if known else None


def identical(parent: Answer, control: Answer, gold_forward: Cube | None = None) -> bool | None:
    """Permutation, distractor, quarantine: the endpoints and the receipt family coincide."""
    return _all(
        [
            _equal(parent.old, control.old),
            _equal(parent.new, control.new),
            _equal(parent.sets, control.sets),
        ]
    )


def inverse_consistent(parent: Answer, control: Answer, gold_forward: Cube) -> bool | None:
    """Inverse: endpoints swap; receipt = minimal transversals when gold is two-label monotone."""
    checks = [_equal(parent.old, control.new), _equal(parent.new, control.old)]
    if two_label_monotone(gold_forward) and parent.sets is not None and control.sets is not None:
        expected = minimal_transversals(parent.sets, gold_forward.k) if parent.sets else ()
        checks.append(sorted(control.sets) == sorted(expected))
    return _all(checks)


CellRelation = Callable[[Cube, Cube], tuple[bool, ...]]
"""(parent's cube, control's cube) -> per cell mask of the control, whether it is the verdict the
parent's cube implies for it."""


def identical_cells(parent: Cube, control: Cube) -> tuple[bool, ...]:
    """Permutation, distractor, quarantine: every cell unchanged."""
    return tuple(a == b for a, b in zip(parent.verdicts, control.verdicts, strict=True))


def inverse_cells(parent: Cube, control: Cube) -> tuple[bool, ...]:
    """Inverse: cell S of the control is cell (all − S) of the parent."""
    top = full_mask(parent.k)
    return tuple(control[m] == parent[top ^ m] for m in range(top + 1))


def inverse_cube(cube: Cube) -> Cube:
    """The gold cube of the inverse transition, by re-indexing cells by complement."""
    top = full_mask(cube.k)
    return Cube(cube.sources, tuple(cube[top ^ m] for m in range(top + 1)))
