"""Declaring a command's keys once: a dataclass field carries the key's type, default and one-line
help (:func:`key`), and the node Hydra composes is built from those fields (:func:`defaults_node`).

A command's dataclass (:mod:`reasonbench.cli.schemas`) is the only place a key is declared.
``conf/<command>.yaml`` keeps what varies: its defaults list (which option of each config group),
Hydra's own settings and the usage comment. The config groups' files (``conf/model/*.yaml``, ...)
are the variants; a group's keys are declared by its dataclass (:func:`group`).

Why the stored node is plain and not the dataclass itself: Hydra would then type-check values
while composing, with its own multi-line messages, and hand enum-typed keys to the commands as
Enum members. The CLI edge checks every value against the same dataclass first
(:func:`reasonbench.cli.config.prepare`), with one line naming the key and the expected type.
"""

from __future__ import annotations

import collections.abc
import copy
import dataclasses
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, Optional

from omegaconf import MISSING

__all__ = [
    "cli_type",
    "defaults_node",
    "derived",
    "group",
    "help_of",
    "key",
    "opens_entries",
    "section",
    "store_keys",
    "typed_settings",
]


def key(
    default: Any = MISSING,
    help: str = "",  # noqa: A002
    new_entries: bool = False,
    names: str | None = None,
) -> Any:
    """A key with its default (``MISSING``: the user must give it) and one line of help. A list
    or mapping default is copied for each instance. ``new_entries``: a mapping the command line
    may add whole entries to (``runs.mine={kind: tfidf, train_splits: [train]}``), each checked
    against the mapping's value type. ``names``: the ``"package.module:REGISTRY"`` whose names
    the key takes; ``--help`` lists them as registered when it runs (plug-ins' included), so no
    help text keeps a list of its own."""
    meta: dict[str, Any] = {"help": help, "new_entries": new_entries, "names": names}
    if isinstance(default, list | dict):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(default), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def section(cls: type, help: str = "") -> Any:  # noqa: A002
    """A mapping of keys declared by dataclass ``cls`` (``pis.w1``, ``eval.every``)."""
    return dataclasses.field(default_factory=cls, metadata={"help": help})


def group(cls: Any = None, help: str = "") -> Any:  # noqa: A002
    """A config group: its value is the option the defaults list (or ``GROUP=OPTION``) chooses,
    a file of ``conf/<group>/``. ``cls``: the dataclass declaring the option's keys (``None``: a
    free mapping, typed by the field's annotation)."""
    meta = {"help": help, "group": True}
    if cls is None:
        return dataclasses.field(default=MISSING, metadata=meta)
    return dataclasses.field(default_factory=cls, metadata=meta)


_SCALARS = (int, float, bool, str)


def cli_type(hint: Any) -> Any:
    """The type a key has on the command line for a library annotation: scalars, enums and
    their Optional stay; a path is text; sequences become lists (of str or int), mappings dicts;
    anything else is ``Any`` (checked by the library itself)."""
    parts = (
        typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()
    )
    optional = type(None) in parts
    members = [a for a in parts if a is not type(None)] if parts else [hint]
    if len(members) != 1:
        return Any
    (base,) = members
    origin = typing.get_origin(base)
    items = [a for a in typing.get_args(base) if a is not Ellipsis]
    if base in _SCALARS or (isinstance(base, type) and issubclass(base, Enum)):
        shaped: Any = base
    elif base is Path:
        shaped = str
    elif origin in (list, tuple, collections.abc.Sequence) and len(set(items)) == 1:
        shaped = list[str] if items[0] is not int else list[int]
    elif origin in (dict, collections.abc.Mapping):
        shaped = dict[str, Any]
    else:
        return Any
    return Optional[shaped] if optional else shaped  # noqa: UP045 (OmegaConf reads Optional)


def _cli_default(value: Any) -> Any:
    """A library default as the command line holds it (a path as text, a tuple as a list)."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return [_cli_default(v) for v in value]
    return value


def derived(
    source: type | Callable[..., Any],
    name: str,
    helps: Mapping[str, str] | None = None,
    defaults: Mapping[str, Any] | None = None,
    types_: Mapping[str, Any] | None = None,
    skip: tuple[str, ...] = (),
    sections: Mapping[str, type] | None = None,
) -> type:
    """A command's keys declared by the library itself: the fields of dataclass ``source`` (or
    the keyword parameters of function ``source``), each with the library's default and help
    (a dataclass field's ``metadata["help"]``; for a function, ``helps``, which the library keeps
    beside it; ``helps`` also gives the shared keys every command has, ``overwrite``,
    ``progress``). So a key's default and help live in one place, next to the code that uses
    them.

    ``defaults``: a default the command line adds where the library has none (``out_dir`` of a
    command), never one that overrides the library's; ``types_``: a narrower type for the command
    line (an Enum of the allowed values); ``skip``: fields the command fills itself;
    ``sections``: fields that are settings of their own (a schema for each)."""
    defaults, types_, sections = defaults or {}, types_ or {}, sections or {}
    fields: list[tuple[str, Any, Any]] = []
    if dataclasses.is_dataclass(source):
        hints = typing.get_type_hints(source)
        found = []
        for f in dataclasses.fields(source):
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                default = MISSING
            help_text = f.metadata.get("help") or (helps or {}).get(f.name, "")
            found.append((f.name, hints[f.name], default, help_text))
    else:
        hints = typing.get_type_hints(source)
        found = [
            (p.name, hints.get(p.name, Any),
             MISSING if p.default is inspect.Parameter.empty else p.default,
             (helps or {}).get(p.name, ""))
            for p in inspect.signature(source).parameters.values()
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]  # fmt: skip
    for field_name, hint, default, help_text in found:
        if field_name in skip:
            continue
        if field_name in sections:
            fields.append(
                (field_name, sections[field_name], section(sections[field_name], help_text))
            )
            continue
        if field_name in defaults:
            if default is not MISSING:
                raise ValueError(f"{name}.{field_name}: the library declares its default already")
            default = defaults[field_name]
        kind = types_.get(field_name, cli_type(hint))
        if isinstance(kind, type) and issubclass(kind, Enum) and default is not MISSING:
            default = kind(default)
        fields.append((field_name, kind, key(_cli_default(default), help_text)))
    return dataclasses.make_dataclass(name, fields)


def _converted(hint: Any, value: Any) -> Any:
    """``value`` (as the command line holds it) as annotation ``hint`` wants it."""
    if value is None:
        return None
    parts = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(parts) == 1:
        return _converted(parts[0], value)
    if isinstance(value, Enum):
        value = value.value
    if hint is Path:
        return Path(value)
    if dataclasses.is_dataclass(hint) and isinstance(value, Mapping):
        return typed_settings(hint, value)  # type: ignore[arg-type]
    if typing.get_origin(hint) is tuple and isinstance(value, list | tuple):
        items = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return tuple(_converted(items[0] if items else Any, v) for v in value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if typing.get_origin(hint) in (dict, collections.abc.Mapping) and isinstance(value, Mapping):
        return dict(value)
    return value


def typed_settings(cls: type[Any], data: Mapping[str, Any]) -> Any:
    """The library's settings dataclass ``cls`` from a command's keys (paths as Path, lists as
    tuples where the library wants them, nested settings as their dataclass): the one place a
    command's configuration becomes the typed object the library takes. Keys ``cls`` does not
    have are the command's own and are ignored."""
    hints = typing.get_type_hints(cls)
    given = {f.name: _converted(hints[f.name], data[f.name]) for f in dataclasses.fields(cls)
             if f.name in data}  # fmt: skip
    return cls(**given)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def defaults_node(schema: type) -> dict[str, Any]:
    """The command's own keys with their defaults, in declaration order (``"???"`` where the user
    must give one); config groups are left to the defaults list."""
    instance = schema()
    return {
        f.name: _plain(getattr(instance, f.name))
        for f in dataclasses.fields(schema)
        if not f.metadata.get("group")
    }


def help_of(schema: type, path: str) -> str | None:
    """The help of dotted key ``path`` (``pis.w1``, ``model.dtype``), or the nearest declared
    section's help where the key has none of its own; ``None`` where no field declares ``path``
    (an entry of a free mapping: a role of ``methods``, a part of ``benchmark``)."""
    node: Any = schema
    found = ""
    for part in path.split("."):
        inner = [a for a in typing.get_args(node) if a is not type(None)]
        if len(inner) == 1 and type(None) in typing.get_args(node):
            node = inner[0]
        fields = (
            {f.name: f for f in dataclasses.fields(node)} if dataclasses.is_dataclass(node) else {}
        )
        if part not in fields:
            return None
        found = fields[part].metadata.get("help") or found
        node = typing.get_type_hints(node)[part]
    names = fields[part].metadata.get("names")
    return f"{found}: {' | '.join(registered(names))}" if names else found


def registered(reference: str) -> tuple[str, ...]:
    """The names registered in the registry ``"package.module:REGISTRY"`` names, now."""
    from reasonbench.registry import Registry, load_reference

    registry = load_reference(reference)
    assert isinstance(registry, Registry), reference  # a key's `names` names a registry
    return registry.names()


def opens_entries(schema: type, path: str) -> bool:
    """Whether dotted key ``path`` names a mapping declared with ``new_entries``."""
    node: Any = schema
    meta: Any = {}
    for part in path.split("."):
        if typing.get_origin(node) is dict:  # an entry of a mapping (runs.<name>): its values' type
            node, meta = typing.get_args(node)[1], {}
            continue
        fields = (
            {f.name: f for f in dataclasses.fields(node)} if dataclasses.is_dataclass(node) else {}
        )
        if part not in fields:
            return False
        meta = fields[part].metadata
        node = typing.get_type_hints(node)[part]
    return bool(meta.get("new_entries"))


_STORED: set[str] = set()


def store_keys(config_name: str, schema: type) -> None:
    """Put the command's own keys in Hydra's ``ConfigStore`` as ``<config_name>_keys``, the node
    ``conf/<config_name>.yaml`` names in its defaults list."""
    if config_name in _STORED:
        return
    from hydra.core.config_store import ConfigStore

    ConfigStore.instance().store(name=f"{config_name}_keys", node=defaults_node(schema))
    _STORED.add(config_name)
