"""Typed records <-> JSON, and their JSON Schema, from the dataclass annotations alone.

``metrics.json`` is a tree of frozen dataclasses (:mod:`reasonbench.analysis.record`). One walker
over their type hints gives both directions: :func:`to_json` / :func:`from_json` (so a record
round-trips exactly, and a file of another layout is refused with the path of the first field that
does not fit) and :func:`json_schema` (the committed ``docs/metrics.schema.json`` is this output;
a test checks they agree). Supported: dataclasses, ``dict[str, T]``, ``list[T]``, ``T | None``,
``str``, ``int``, ``float``, ``bool`` and ``Any`` (a config subtree).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar, Union

__all__ = ["RecordFormatError", "from_json", "json_schema", "to_json"]

T = TypeVar("T")


class RecordFormatError(ValueError):
    """JSON that does not have the layout of the record type; names the first field that fails."""


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fields(cls: type) -> list[tuple[str, Any, bool]]:
    """(name, type, required) of a dataclass, in declaration order."""
    hints = _hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        out.append((f.name, hints[f.name], not has_default))
    return out


def _optional(tp: Any) -> Any | None:
    """``X`` if ``tp`` is ``X | None``, else ``None``."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return args[0]
        raise TypeError(f"only X | None unions are supported, got {tp}")
    return None


def to_json(value: Any) -> Any:
    """A record (or a container of records) as plain JSON values, fields in declaration order."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value


def _fail(path: str, expected: str, value: Any) -> RecordFormatError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return RecordFormatError(f"{path or 'top level'}: expected {expected}, got {shown}")


def _decode(tp: Any, value: Any, path: str) -> Any:
    if tp is Any:
        return value
    inner = _optional(tp)
    if inner is not None:
        return None if value is None else _decode(inner, value, path)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, Mapping):
            raise _fail(path, f"an object ({tp.__name__})", value)
        known = {name for name, _, _ in _fields(tp)}
        extra = sorted(set(value) - known)
        if extra:
            raise RecordFormatError(f"{path or 'top level'}: unknown field(s) {extra}")
        kwargs = {}
        for name, ftype, required in _fields(tp):
            where = f"{path}.{name}" if path else name
            if name not in value:
                if required:
                    raise RecordFormatError(f"{where}: missing")
                continue
            kwargs[name] = _decode(ftype, value[name], where)
        return tp(**kwargs)
    origin = typing.get_origin(tp)
    if origin is dict:
        _, vtype = typing.get_args(tp)
        if not isinstance(value, Mapping):
            raise _fail(path, "an object", value)
        return {str(k): _decode(vtype, v, f"{path}.{k}") for k, v in value.items()}
    if origin is list:
        (item,) = typing.get_args(tp)
        if not isinstance(value, list):
            raise _fail(path, "a list", value)
        return [_decode(item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if tp is bool:
        if not isinstance(value, bool):
            raise _fail(path, "true or false", value)
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(path, "an integer", value)
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _fail(path, "a number", value)
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise _fail(path, "a string", value)
        return value
    raise TypeError(f"{path}: unsupported type {tp}")


def from_json(cls: type[T], data: Any) -> T:
    """Decode ``data`` as ``cls``; :class:`RecordFormatError` names the first field that fails."""
    decoded: T = _decode(cls, data, "")
    return decoded


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp is Any:
        return {}
    inner = _optional(tp)
    if inner is not None:
        return {"anyOf": [_schema(inner, defs), {"type": "null"}]}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder first: a recursive type refers to itself
            fields = _fields(tp)
            doc = (tp.__doc__ or "").strip().split("\n\n")[0]
            defs[name] = {
                "type": "object",
                **({"description": " ".join(doc.split())} if doc else {}),
                "properties": {n: _schema(t, defs) for n, t, _ in fields},
                "required": [n for n, _, required in fields if required],
                "additionalProperties": False,
            }
        return {"$ref": f"#/$defs/{name}"}
    origin = typing.get_origin(tp)
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema(typing.get_args(tp)[1], defs)}
    if origin is list:
        return {"type": "array", "items": _schema(typing.get_args(tp)[0], defs)}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string"}
    if tp in simple:
        return {"type": simple[tp]}
    raise TypeError(f"unsupported type {tp}")


def json_schema(cls: type, title: str, schema_id: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the record type ``cls``."""
    defs: dict[str, Any] = {}
    root = _schema(cls, defs)
    name = root["$ref"].rsplit("/", 1)[-1]
    body = defs.pop(name)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_id,
        "title": title,
        **body,
        "$defs": dict(sorted(defs.items())),
    }
