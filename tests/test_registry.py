"""The one registry: named objects, lazy references, clear errors."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Named:
    name: str


MISNAMED = Named("bar")  # what a lazy reference below loads


def test_an_object_registered_under_another_name_is_refused() -> None:
    reg: Registry[object] = Registry("metric")
    message = (
        "metric registered as 'foo' is named 'bar'; register it as 'bar' or rename it (its name "
        "attribute is the name reports print)"
    )
    with pytest.raises(RegistryError) as refused:
        reg.register("foo", Named("bar"))
    assert str(refused.value) == message
    with pytest.raises(RegistryError, match="metric registered as 'foo' is named 'bar'"):

        @reg.register("foo")
        class Bar:  # a class carrying a name (as a stratum class does)
            name = "bar"

    assert "foo" not in reg
    reg.register("bar", Named("bar"))  # the same names: accepted
    reg.register("anything", 3)  # no name attribute: not checked


def test_a_lazy_entry_is_checked_when_first_loaded() -> None:
    reg: Registry[Named] = Registry("control")
    reg.register_lazy("foo", "tests.test_registry:MISNAMED")  # not imported yet: accepted
    for _ in range(2):  # refused each time: the entry stays lazy
        with pytest.raises(RegistryError) as refused:
            reg.get("foo")
        assert str(refused.value) == (
            "control registered as 'foo' is named 'bar' (loaded from "
            "'tests.test_registry:MISNAMED'); register it as 'bar' or rename it (its name "
            "attribute is the name reports print)"
        )
    reg.register_lazy("bar", "tests.test_registry:MISNAMED")
    assert reg.get("bar") is MISNAMED


def test_a_dataclass_field_called_name_is_not_the_class_name() -> None:
    @dataclass
    class Schema:  # a config schema registered as a class: `name` is what an instance gets
        name: str = "judge"

    reg: Registry[type] = Registry("config schema")
    reg.register("evaluate", Schema)
    assert reg.get("evaluate") is Schema
