"""One registry of named objects for every extension point (strata, adjudicators, judges, targets,
control kinds, metrics).

An entry is either an object registered directly (usually with the :meth:`Registry.register`
decorator) or a lazy ``"package.module:Attribute"`` reference that is imported on first use, so a
heavy extension (a stratum's data files, a model judge's torch import) costs nothing until asked
for. An unknown name is an error that lists the registered names and suggests the closest one.

An object that carries its own ``name`` (a :class:`~reasonbench.targets.Target`, a
:class:`~reasonbench.analysis.Metric`, a :class:`~reasonbench.controls.ControlKind`, a stratum
class) must be registered under that name: reports print the one, the registry looks up the
other. A mismatch is refused when registered, or, for a lazy entry, when it is first loaded.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar, cast, overload

__all__ = ["Registry", "RegistryError", "closest", "load_reference"]

T = TypeVar("T")
D = TypeVar("D")  # what a decorator returns unchanged


class RegistryError(KeyError, ValueError):
    """An unknown or doubly registered name; the message says which and what exists."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


def closest(name: str, candidates: Iterator[str] | list[str] | tuple[str, ...]) -> str | None:
    """The candidate most similar to ``name`` (for "did you mean ...?"), or ``None``."""
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def load_reference(reference: str) -> object:
    """Import ``"package.module:Attribute"`` (dots after the colon walk attributes)."""
    module_name, sep, attribute = reference.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"{reference!r} is not a 'package.module:Attribute' reference")
    target: object = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class _Lazy:
    reference: str


def _declared_name(obj: object) -> str | None:
    """The name ``obj`` carries as its ``name`` attribute (a string), or ``None``. A dataclass's
    ``name`` field default is not the class's name (it is what an instance gets), so a config
    schema registered as a class declares none."""
    name = getattr(obj, "name", None)
    if not isinstance(name, str):
        return None
    if isinstance(obj, type) and dataclasses.is_dataclass(obj):
        return None if "name" in {f.name for f in dataclasses.fields(obj)} else name
    return name


class Registry(Generic[T]):
    """Named objects of one kind; ``kind`` names them in error messages ("judge factory")."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        # one dict in registration order: an object, or a reference not imported yet
        self._entries: dict[str, T | _Lazy] = {}

    @overload
    def register(self, name: str) -> Callable[[D], D]: ...

    @overload
    def register(self, name: str, obj: T) -> T: ...

    def register(self, name: str, obj: object = None) -> object:
        """Register ``obj`` under ``name``; without ``obj``, a decorator that registers what it
        decorates and returns it unchanged. Registering the same object twice is harmless (a
        module imported twice); another object under a taken name is an error, and so is an
        object whose ``name`` attribute is not ``name`` (:class:`RegistryError`)."""
        if obj is None:

            def decorate(item: D) -> D:
                self._add(name, cast(T, item))
                return item

            return decorate
        self._add(name, cast(T, obj))
        return obj

    def _check_name(self, name: str, obj: object, reference: str | None = None) -> None:
        declared = _declared_name(obj)
        if declared is not None and declared != name:
            loaded = f" (loaded from {reference!r})" if reference else ""
            raise RegistryError(
                f"{self.kind} registered as {name!r} is named {declared!r}{loaded}; register it "
                f"as {declared!r} or rename it (its name attribute is the name reports print)"
            )

    def _add(self, name: str, obj: T) -> None:
        self._check_name(name, obj)
        current = self._entries.get(name)
        # a lazy entry is replaced by the object its module registers when imported
        if current is not None and not isinstance(current, _Lazy) and current is not obj:
            raise RegistryError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = obj

    def register_lazy(self, name: str, reference: str) -> None:
        """Register ``"package.module:Attribute"`` under ``name``, imported on first :meth:`get`
        (where an object whose ``name`` attribute is not ``name`` is refused)."""
        current = self._entries.get(name)
        if current is not None and current != _Lazy(reference):
            raise RegistryError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = _Lazy(reference)

    def unregister(self, name: str) -> None:
        """Remove ``name`` (tests that register a toy extension clean up with this)."""
        self._entries.pop(name, None)

    def get(self, name: str) -> T:
        if name not in self._entries:
            raise RegistryError(self.unknown(name))
        entry = self._entries[name]
        if isinstance(entry, _Lazy):
            obj = cast(T, load_reference(entry.reference))
            # importing the module may already have registered the object (a decorator)
            current = self._entries[name]
            if isinstance(current, _Lazy):
                self._check_name(name, obj, entry.reference)  # refused: the entry stays lazy
                current = obj
            entry = current
            self._entries[name] = entry
        return entry

    def unknown(self, name: str) -> str:
        """The message for an unknown ``name``: what exists, and the closest match."""
        names = self.names()
        hint = closest(name, names)
        suggestion = f"; did you mean {hint!r}?" if hint else ""
        listed = ", ".join(sorted(names)) if names else "none"
        return f"unknown {self.kind} {name!r}; registered: {listed}{suggestion}"

    def names(self) -> tuple[str, ...]:
        """Every registered name, in registration order (lazy entries included)."""
        return tuple(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)
