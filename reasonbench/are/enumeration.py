"""Exact search by vectorised enumeration of a reduced problem.

Two devices keep this fast without giving up exactness:

* **elimination** — a set T of free claims with no coupling among themselves (W_TT = 0), none a
  consequential action and none in a prohibition, is minimised in closed form: given the other
  claims S, each t in T takes sgn(h_t) and contributes -|h_t(x_S)|. Only 2^|S| positions are
  enumerated; a tie (h_t = 0) is expanded when the minimisers are listed.
* **blocks** — S is split into a "low" and a "high" half (every consequential action high), so
  the energies of a block of positions are ``E_lo[row] + E_hi[col] - X_lo W_lh X_hi'``: one
  matrix product instead of a loop. The decision depends only on the column, so the decision
  margin is a per-column minimum grouped by decision code.

Among global minimisers the selected one is the lexicographically smallest in claim order with
reject (-1) before accept (+1): a fixed tie-breaking rule, as Definition 10 asks.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from itertools import product

import numpy as np

from reasonbench.are.compilation import TOL, Matrix, Quadratic
from reasonbench.are.reduction import Reduced, Search

BLOCK = 1 << 16  # energy entries per block (512 KiB of float64: stays in cache)
LIMIT = 22  # most enumerated claims (after elimination) this backend accepts


@lru_cache(maxsize=32)
def signs(k: int) -> Matrix:
    """All 2^k positions of k claims as rows; bit i of the row number is claim i accepted."""
    bits = (np.arange(1 << k)[:, None] >> np.arange(k)[None, :]) & 1
    out: Matrix = (2 * bits - 1).astype(float)
    out.setflags(write=False)
    return out


def eliminable(problem: Reduced) -> list[int]:
    """A greedy independent set of the coupling graph among claims free of Ac and F, sparsest
    first (deterministic: ties by index)."""
    W = problem.energy.W
    blocked = set(problem.consequential) | {c for pair in problem.pairs for c in pair}
    degree = (W != 0).sum(axis=1)
    chosen: list[int] = []
    for u in sorted(range(problem.n), key=lambda i: (int(degree[i]), i)):
        if u not in blocked and not any(W[u, t] != 0 for t in chosen):
            chosen.append(u)
    return sorted(chosen)


def enumerable(problem: Reduced) -> bool:
    """Whether the positions left after elimination fit this backend (at most ``LIMIT``
    claims fit without eliminating any: the common case needs no independent set)."""
    return problem.n <= LIMIT or problem.n - len(eliminable(problem)) <= LIMIT


CACHE_SIZE = 8192  # 0 turns the cache off (scripts/bench_extended.py's baseline)
_CACHE: OrderedDict[tuple[object, ...], Search] = OrderedDict()


def cache_key(problem: Reduced) -> tuple[object, ...]:
    """What the search reads: the coupling and fields of the free claims (exact bytes), the
    prohibitions among them and which are consequential. The energy's constant is not read
    (the search runs with it at 0), so problems that differ only by fixed claims share a key."""
    form = problem.energy
    return (problem.n, form.W.tobytes(), form.b.tobytes(), problem.pairs, problem.consequential)


def enumerate_search(problem: Reduced) -> Search:
    """Global minimiser, Gamma_A, uniqueness, every minimiser and the worst observables, exactly.

    Cached by :func:`cache_key` (most cube cells and draws of a build reduce to a problem seen
    before); a hit returns exactly what a fresh search would, since the search is a function of
    the key alone."""
    if not CACHE_SIZE:
        found = _search(problem)
    else:
        key = cache_key(problem)
        cached = _CACHE.get(key)
        if cached is None:
            found = _CACHE[key] = _search(problem)
            if len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            found = cached
            _CACHE.move_to_end(key)
    X = found.minimisers
    assert X is not None
    worst = tuple(float(o.values(X).max()) for o in problem.observables)
    return replace(found, energy=found.energy + problem.energy.c, worst=worst)


DIRECT = 10
"""Up to this many free claims every position is enumerated at once (no elimination, no
blocks): one matrix product over 2^n rows is cheaper than the bookkeeping that saves it."""


def _direct(problem: Reduced) -> Search:
    """Exhaustive search over all 2^n positions of a small problem (same answers as
    :func:`_search`: the minimisers within TOL, the lexicographically smallest selected)."""
    n, form = problem.n, problem.energy
    X = signs(n)
    energy = -0.5 * np.einsum("ij,ij->i", X @ form.W, X) - X @ form.b
    for h, a in problem.pairs:
        energy[(X[:, h] > 0) & (X[:, a] > 0)] = np.inf
    best = float(energy.min())
    M = X[energy <= best + TOL]
    x = M[np.lexsort(M.T[::-1])[0]] if n else M[0]
    gamma = np.inf
    ac = list(problem.consequential)
    if ac:
        weights = 1 << np.arange(len(ac), dtype=np.int64)
        codes = (X[:, ac] > 0).astype(np.int64) @ weights
        other = energy[codes != int(((x[ac] > 0).astype(np.int64) * weights).sum())]
        if other.size:
            gamma = float(other.min() - best)
    M.setflags(write=False)
    return Search(x, best, 0.0 if gamma < TOL else gamma, len(M) == 1, (), M)


def _search(problem: Reduced) -> Search:
    return _direct(problem) if problem.n <= DIRECT else _eliminate(problem)


def _eliminate(problem: Reduced) -> Search:
    """Search with closed-form elimination and blocks (the module docstring)."""
    n, form = problem.n, problem.energy
    T = eliminable(problem)
    S = [i for i in range(n) if i not in T]
    if len(S) > LIMIT:
        raise ValueError(f"enumeration handles at most {LIMIT} claims after elimination")
    ac = list(problem.consequential)
    rest = [i for i in S if i not in ac]
    m = max(len(ac), (len(S) + 1) // 2)
    hi, lo = ac + rest[: m - len(ac)], rest[m - len(ac) :]
    X_lo, X_hi = signs(len(lo)), signs(m)
    part = Quadratic(form.W[lo][:, lo], form.b[lo], 0.0)  # the constant: added by the caller
    e_lo = part.values(X_lo)
    e_hi = Quadratic(form.W[hi][:, hi], form.b[hi], 0.0).values(X_hi)
    coupling = form.W[lo][:, hi]
    f_lo, f_hi = X_lo @ form.W[T][:, lo].T, X_hi @ form.W[T][:, hi].T + form.b[T]
    where = {i: (0, k) for k, i in enumerate(lo)} | {i: (1, k) for k, i in enumerate(hi)}
    cross: list[tuple[int, int]] = []  # prohibitions with the trigger low and the action high
    for h, a in problem.pairs:
        (sh, kh), (sa, ka) = where[h], where[a]
        if sh == sa:
            X, e = (X_lo, e_lo) if sh == 0 else (X_hi, e_hi)
            e[(X[:, kh] > 0) & (X[:, ka] > 0)] = np.inf
        else:
            cross.append((kh, ka) if sh == 0 else (ka, kh))

    def block(cols: np.ndarray) -> Matrix:
        out: Matrix = X_lo @ (coupling @ X_hi[cols].T)
        np.subtract(e_lo[:, None], out, out=out)
        out += e_hi[None, cols]
        scratch = np.empty_like(out)
        for j in range(len(T)):  # in place: each eliminated claim costs two passes, no allocation
            np.add(f_lo[:, j, None], f_hi[None, cols, j], out=scratch)
            np.abs(scratch, out=scratch)
            out -= scratch
        for kl, kh in cross:
            out[np.outer(X_lo[:, kl] > 0, X_hi[cols, kh] > 0)] = np.inf
        return out

    width = max(1, BLOCK >> len(lo))
    col_min = np.concatenate(
        [block(np.arange(s, min(s + width, 1 << m))).min(axis=0) for s in range(0, 1 << m, width)]
    )
    best = float(col_min.min())
    near = np.flatnonzero(col_min <= best + TOL)
    X = _minimisers(near, width, block, best, n, lo, hi, T, X_lo, X_hi, f_lo, f_hi)
    # lexsort's last key is primary, so claim 0 decides first (with no free claim: the one row)
    x = X[np.lexsort(X.T[::-1])[0]] if n else X[0]

    weights = 1 << np.arange(len(ac), dtype=np.int64)
    codes = (X_hi[:, : len(ac)] > 0).astype(np.int64) @ weights
    per_code = np.full(1 << len(ac), np.inf)
    np.minimum.at(per_code, codes, col_min)
    per_code[int(((x[ac] > 0).astype(np.int64) * weights).sum())] = np.inf
    gamma = float(per_code.min() - best)
    X.setflags(write=False)
    return Search(x, best, 0.0 if gamma < TOL else gamma, len(X) == 1, (), X)


def _minimisers(
    near: np.ndarray,
    width: int,
    block: Callable[[np.ndarray], Matrix],
    best: float,
    n: int,
    lo: list[int],
    hi: list[int],
    T: list[int],
    X_lo: Matrix,
    X_hi: Matrix,
    f_lo: Matrix,
    f_hi: Matrix,
) -> Matrix:
    """Every global minimiser as a row; eliminated claims at sgn(h), both ways when h = 0."""
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    for s in range(0, len(near), width):
        chunk = near[s : s + width]
        r, c = np.nonzero(block(chunk) <= best + TOL)
        rows.append(r)
        cols.append(chunk[c])
    row, col = np.concatenate(rows), np.concatenate(cols)
    found = []
    for r, c in zip(row.tolist(), col.tolist(), strict=True):
        x = np.empty(n)
        x[lo], x[hi] = X_lo[r], X_hi[c]
        h = f_lo[r] + f_hi[c]
        x[T] = np.where(h < 0, -1.0, 1.0)
        ties = [T[j] for j in range(len(T)) if 2 * abs(h[j]) <= TOL]
        for choice in product((-1.0, 1.0), repeat=len(ties)):
            y = x.copy()
            y[ties] = choice
            found.append(y)
    return np.array(found)
