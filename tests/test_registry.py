"""The one registry: named objects, lazy references, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reasonbench.registry import Registry, RegistryError, load_reference


def test_register_get_and_order() -> None:
    reg: Registry[int] = Registry("thing")
    reg.register("b", 2)

    @reg.register("a")
    def make() -> int:
        return 1

    assert reg.get("b") == 2 and reg.get("a") is make
    assert reg.names() == ("b", "a") and "a" in reg and len(reg) == 2
    reg.register("b", 2)  # the same object again is harmless (a module imported twice)
    with pytest.raises(RegistryError, match="thing 'b' is already registered"):
        reg.register("b", 3)


def test_unknown_names_the_closest() -> None:
    reg: Registry[int] = Registry("target")
    reg.register("direct_receipt", 1)
    reg.register("cube", 2)
    with pytest.raises(RegistryError, match="unknown target 'direct_reciept'; registered: cube, "
                       "direct_receipt; did you mean 'direct_receipt'\\?"):  # fmt: skip
        reg.get("direct_reciept")
    with pytest.raises(KeyError):  # a RegistryError is a KeyError (and a ValueError)
        reg.get("essay")


def test_lazy_entries_import_on_first_use() -> None:
    reg: Registry[object] = Registry("factory")
    reg.register_lazy("dumps", "json:dumps")
    import json

    assert reg.get("dumps") is json.dumps
    assert load_reference("os.path:join") is __import__("os").path.join
    with pytest.raises(ValueError, match="not a 'package.module:Attribute'"):
        load_reference("json.dumps")


@given(st.lists(st.text(min_size=1, max_size=8), unique=True, max_size=12))
def test_names_keep_registration_order(names: list[str]) -> None:
    reg: Registry[int] = Registry("x")
    for i, name in enumerate(names):
        reg.register(name, i)
    assert reg.names() == tuple(names)
    assert [reg.get(n) for n in names] == list(range(len(names)))
