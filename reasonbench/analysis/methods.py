"""Method metadata: what an analyzed method is, without decoding its name.

A method's **target** comes from its records (every record names it). Its paper **role**, its
**model** and its **data** variant come from the role map (``conf/methods/paper.yaml``): each role
names the run that plays it (``method``), the target the role expects (checked against the
records), the backbone and the training data variant. A method that plays no role (a user's own
model, any name) is analyzed and reported all the same, with its role, model and data unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.analysis.record import MethodInfo
from reasonbench.analysis.scoring import carried
from reasonbench.predictions.io import PredictionFileError

__all__ = ["Role", "SettingsError", "method_info", "role_of", "roles"]


class SettingsError(ValueError):
    """A bad analysis setting (role map, comparison, calibration scale); one line, names it."""


@dataclass(frozen=True)
class Role:
    name: str
    method: str
    target: str | None = None
    model: str | None = None
    data: str | None = None


def roles(config: Mapping[str, Any] | None) -> dict[str, Role]:
    """The role map: ``{role: {method, target, model, data}}`` (or ``{role: method}``)."""
    out = {}
    for name, value in (config or {}).items():
        if isinstance(value, str):
            out[str(name)] = Role(str(name), value)
        elif isinstance(value, Mapping) and isinstance(value.get("method"), str):
            out[str(name)] = Role(
                str(name),
                value["method"],
                *(
                    None if value.get(k) is None else str(value[k])
                    for k in ("target", "model", "data")
                ),
            )
        else:
            raise SettingsError(
                f"role {name!r}: expected {{method: <name>, target, model, data}}, got {value!r}"
            )
    return out


def role_of(method: str, role_map: Mapping[str, Role]) -> Role | None:
    return next((r for r in role_map.values() if r.method == method), None)


def method_info(
    method: str,
    target: str,
    seeds: list[int],
    splits: list[str],
    role_map: Mapping[str, Role],
) -> MethodInfo:
    role = role_of(method, role_map)
    if role is not None and role.target is not None and role.target != target:
        raise PredictionFileError(
            f"method {method} plays the role {role.name}, which expects target {role.target}, "
            f"but its records declare target {target} (conf/methods)"
        )
    return MethodInfo(
        target=target,
        verdict_only=carried(target).verdict_only,
        seeds=seeds,
        splits=splits,
        role=None if role is None else role.name,
        model=None if role is None else role.model,
        data=None if role is None else role.data,
    )
