"""One edit of a composition: which operator of a pool, and which of its edits.

Operators are drawn in random order (lazily: a draw usually looks at one or two of them). An
edit is preferably one the caller *wants* (e.g. one that matters for the case, see
:mod:`.pivots`) and, later in a composition, one *about* the facts already touched; an operator
that cannot make such an edit on this state gives way to the next one. That keeps the choice
uniform among the operators that can, so held-out operators stay meaningful, and costs a few
operator calls instead of a fresh base state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from reasonbench.core.sources import GNA
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.base import Operator
from reasonbench.strata.organizational.focus import Focus
from reasonbench.strata.organizational.pivots import Wanted, about
from reasonbench.strata.organizational.schema import Clause

FOCUS_OPERATORS = 0.75  # chance a later operator is chosen for being about a touched fact
TRIES = 1  # edits one operator gets to be wanted before the next one is tried
SCAN = 6  # applicable operators examined for a wanted edit (about the focus, if any)

Step = tuple[EvaluatorState[Any], Operator]


def shuffled(pool: tuple[Operator, ...], rng: random.Random, effective: bool) -> Iterator[Operator]:
    """The pool in random order, drawn lazily (a draw usually looks at one or two operators);
    with ``effective``, the operators that are not no-ops come first."""
    groups = [[op for op in pool if not op.noop], [op for op in pool if op.noop]]
    for group in groups if effective else [list(pool)]:
        for i in range(len(group)):
            j = i + int(rng.random() * (len(group) - i))  # (one C call, unlike randrange)
            group[i], group[j] = group[j], group[i]
            yield group[i]


def apply_one(
    unit: Clause | Focus,
    state: EvaluatorState[Any],
    pool: tuple[Operator, ...],
    rng: random.Random,
    want: Wanted | None = None,
    effective: bool = False,
    focus_first: bool = True,
) -> Step | None:
    """Draw an operator of the pool (random order, first applicable) and apply it.

    The edit is preferably one ``want`` accepts (e.g. one that matters for the current case)
    and, in a composition, one about the facts already touched (:func:`.pivots.about`): each
    operator gets ``TRIES`` edits to find one that is both, then gives way to the next (``SCAN``
    applicable ones at most). Failing that, the best edit seen is used: one about the facts,
    else a wanted one (the reverse with ``focus_first=False``), else the first. Among the
    operators that can make a fitting edit, the choice stays uniform, so held-out operators
    stay meaningful. ``effective`` tries the operators that are not no-ops first.
    """
    focus = unit.fields if isinstance(unit, Focus) and rng.random() < FOCUS_OPERATORS else ()
    if focus and all(op.source == "A" for op in pool):
        # A scope edit only rewrites tests on the scope's own fields: if none is focused, no
        # candidate can be about the focus, and the first applicable one is the answer.
        scoped = state.components[2].fields()
        focus = tuple(f for f in focus if f in scoped)
    best, rank, scanned = None, -1, 0
    for op in shuffled(pool, rng, effective):
        index = GNA.index(op.source)
        current, applicable = state.components[index], False
        for _ in range(TRIES if (want is not None and not op.noop) or focus else 1):
            component = op.apply(unit, state, rng)
            if component is None or component == current:
                continue
            parts = list(state.components)
            parts[index] = component
            after = EvaluatorState(GNA, tuple(parts))
            ok = want is None or op.noop or want(state, after)
            near = not focus or about(focus, state, after)
            if ok and near:
                return after, op
            applicable = True
            score = 2 * near + ok if focus_first else 2 * ok + near
            if score > rank:
                best, rank = (after, op), score
        scanned += applicable
        if scanned >= SCAN:
            break
    return best
