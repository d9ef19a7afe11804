"""The one validation kit: every fault raises the bound error, located, and valid data passes."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reasonbench.are.validate import AreError
from reasonbench.are.validate import record as are_record
from reasonbench.strata.organizational.parse import ClauseError, mapping
from reasonbench.validate import Checks


class Boom(ValueError):
    pass


CHECKS = Checks(Boom)
plain = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.lists(st.integers())
)


@given(st.text(min_size=1), plain)
def test_every_fault_is_the_bound_error_and_starts_with_where(where: str, data: Any) -> None:
    for check in (
        lambda: CHECKS.record(data, where, {"a"}),
        lambda: CHECKS.items(data, where),
        lambda: CHECKS.text(data, where),
        lambda: CHECKS.integer(data, where),
        lambda: CHECKS.number(data, where, 0.0, 1.0),
        lambda: CHECKS.choice(data, where, ("x", "y")),
    ):
        try:
            check()
        except Boom as exc:
            assert str(exc).startswith(f"{where}: ")


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_integers_pass_and_booleans_do_not(n: int) -> None:
    assert CHECKS.integer(n, "w") == n
    with pytest.raises(Boom, match="w: expected an integer"):
        CHECKS.integer(True, "w")


def test_record_names_unknown_and_missing_keys() -> None:
    assert CHECKS.record({"a": 1}, "f.yaml: c", {"a", "b"}, ("a",)) == {"a": 1}
    with pytest.raises(
        Boom, match=r"^f\.yaml: c: unknown key\(s\) \['z'\]; allowed: \['a', 'b'\]$"
    ):
        CHECKS.record({"a": 1, "z": 2}, "f.yaml: c", {"a", "b"})
    with pytest.raises(Boom, match=r"missing key\(s\) \['b'\]"):
        CHECKS.record({"a": 1}, "w", {"a", "b"}, ("a", "b"))


def test_limits_numbers_and_ids() -> None:
    assert CHECKS.limit(None, "w") == math.inf and CHECKS.limit("inf", "w") == math.inf
    assert CHECKS.limit(0.5, "w") == 0.5
    with pytest.raises(Boom, match="must be > 0"):
        CHECKS.limit(0, "w")
    with pytest.raises(Boom, match="outside"):
        CHECKS.number(2, "w", 0.0, 1.0)
    assert CHECKS.ident("a_1", "w") == "a_1"
    with pytest.raises(Boom, match="not an identifier"):
        CHECKS.ident("a-1", "w")
    with pytest.raises(Boom, match="duplicate id 'x'"):
        CHECKS.unique(["x", "y", "x"], "w")


def test_each_stratum_family_keeps_its_own_error_with_one_wording() -> None:
    with pytest.raises(ClauseError) as clause:
        mapping({"z": 1}, "clauses/x.yaml: c1", {"a"})
    with pytest.raises(AreError) as are:
        are_record({"z": 1}, "are/x.yaml: c1", {"a"})
    assert str(clause.value).split(": ", 2)[-1] == str(are.value).split(": ", 2)[-1]
