"""A control kind's contract (docs/extending.md, "A new paired-control kind"): ``cells`` is
required unless the relation is ``identical``, and a kind is refused when it is built without it,
not when ``audit`` finds its gold violating the default cell relation."""

from __future__ import annotations

import pytest

from reasonbench.controls import (
    CONTROL_KINDS,
    ControlKind,
    identical,
    identical_cells,
    inverse_cells,
    inverse_consistent,
)

INVERSE = CONTROL_KINDS.get("inverse")


def test_a_kind_with_another_relation_and_no_cells_is_refused() -> None:
    with pytest.raises(ValueError) as refused:
        ControlKind("flip", "flip", "flip", INVERSE.build, inverse_consistent)
    assert str(refused.value) == (
        "control kind 'flip' has relation inverse_consistent but no cells=: set "
        "ControlKind(cells=...) to how its control's cube relates to the parent's, which audit "
        "checks on every gold pair (inverse_cells: cell S is the parent's cell all-S; "
        "identical_cells: every cell unchanged; or your own)"
    )
    assert "flip" not in CONTROL_KINDS


def test_cells_given_or_implied_by_identical() -> None:
    flip = ControlKind(
        "flip", "flip", "flip", INVERSE.build, inverse_consistent, cells=inverse_cells
    )
    assert flip.cells is inverse_cells
    # said explicitly, the identical cells go with any relation (a weaker one, say)
    weaker = ControlKind("w", "w", "w", INVERSE.build, inverse_consistent, cells=identical_cells)
    assert weaker.cells is identical_cells
    echo = ControlKind("echo", "echo", "echo", INVERSE.build, identical)
    assert echo.cells is identical_cells  # the default, for the identical relation only
    assert [CONTROL_KINDS.get(k).cells for k in CONTROL_KINDS] == [
        inverse_cells, identical_cells, identical_cells, identical_cells
    ]  # fmt: skip


def test_a_kind_registered_under_another_name_is_refused() -> None:
    from reasonbench.registry import RegistryError

    echo = ControlKind("echo", "echo", "echo", INVERSE.build, identical)
    with pytest.raises(RegistryError, match="control registered as 'mirror' is named 'echo'"):
        CONTROL_KINDS.register("mirror", echo)
    assert "mirror" not in CONTROL_KINDS
