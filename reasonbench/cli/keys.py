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

import copy
import dataclasses
import typing
from enum import Enum
from typing import Any

from omegaconf import MISSING

__all__ = ["defaults_node", "group", "help_of", "key", "opens_entries", "section", "store_keys"]


def key(default: Any = MISSING, help: str = "", new_entries: bool = False) -> Any:  # noqa: A002
    """A key with its default (``MISSING``: the user must give it) and one line of help. A list
    or mapping default is copied for each instance. ``new_entries``: a mapping the command line
    may add whole entries to (``runs.mine={kind: tfidf, train_splits: [train]}``), each checked
    against the mapping's value type."""
    meta: dict[str, Any] = {"help": help, "new_entries": new_entries}
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
    return found


def opens_entries(schema: type, path: str) -> bool:
    """Whether dotted key ``path`` names a mapping declared with ``new_entries``."""
    node: Any = schema
    meta: Any = {}
    for part in path.split("."):
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
