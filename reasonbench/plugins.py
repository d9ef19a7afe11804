"""Plug-ins: a user's own modules that register objects — a stratum, a target, a control kind, a
metric, a judge, a certify adjudicator kind, a config group option — in reasonbench's registries,
without editing reasonbench (docs/extending.md).

A plug-in is any importable module; importing it is what registers its objects (the registries'
``register`` decorators, or ``hydra``'s ``ConfigStore`` for a config group option such as a
benchmark). Every command brings plug-ins in two ways before it composes its configuration:

* each installed package's entry points in the group ``reasonbench.plugins``
  (``[project.entry-points."reasonbench.plugins"] my_pkg = "my_pkg.reasonbench_plugin"``), in
  name order;
* then the modules the command line names: ``plugins=[my_pkg.judges,my_pkg.metrics]``
  (importable: installed, or on ``PYTHONPATH`` — ``PYTHONPATH=. reasonbench ...`` for modules
  in the working directory), in the order given.

A module that cannot be imported is a :class:`PluginError`, one line that names it and the key.

What a command writes records the plug-ins it loaded (:func:`loaded_plugins`: a benchmark's
``MANIFEST.json``, a prediction run's meta, ``evaluate.json``, ``metrics.json``), and a later
command that reads such a file loads them too (:func:`carry_plugins`), or refuses in one line
naming the plug-in it cannot import: its output never silently lacks what the plug-in added.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Iterable, Mapping
from importlib.metadata import (
    EntryPoint,
    PackageNotFoundError,
    entry_points,
    packages_distributions,
    version,
)
from pathlib import Path
from typing import Any

__all__ = [
    "ENTRY_POINT_GROUP",
    "PluginError",
    "carry_plugins",
    "carry_plugins_from",
    "load_entry_points",
    "load_plugins",
    "loaded_plugins",
]

ENTRY_POINT_GROUP = "reasonbench.plugins"
MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

# every module loaded as a plug-in in this process -> (distribution, version) when its entry
# point said so, else None (looked up when recorded)
_LOADED: dict[str, tuple[str, str | None] | None] = {}


class PluginError(ValueError):
    """A plug-in that cannot be imported; the message names it and where it was named."""


def load_plugins(modules: Iterable[str] = ()) -> None:
    """Load every installed ``reasonbench.plugins`` entry point, then import ``modules`` in order
    (Python imports a module once per process, so loading twice registers nothing twice)."""
    load_entry_points()
    for module in modules:
        import_plugin(module)


def import_plugin(module: str) -> None:
    """Import ``module`` (named by the ``plugins`` key)."""
    problem = _import(module)
    if problem is not None:
        what, detail, hint = problem
        raise PluginError(f"plugin {module!r} {what} ({detail}{hint}), key plugins")


def _import(module: str) -> tuple[str, str, str] | None:
    """Import ``module`` and note it as loaded; else what went wrong: ("cannot be imported",
    what Python said, a hint), or ``None``."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        # the module itself (or its package) is missing, not something it imports
        hint = (
            "; is its package on PYTHONPATH?"
            if module.split(".")[0] == missing.split(".")[0]
            else ""
        )
        return "cannot be imported", f"no module named {missing!r}", hint
    except Exception as exc:  # the plug-in's own code failed: name the plug-in, not reasonbench
        text = " ".join(str(exc).split()) or type(exc).__name__
        return "failed while importing", f"{type(exc).__name__}: {text}", ""
    _LOADED.setdefault(module, None)
    return None


def load_entry_points() -> None:
    """Import what each installed package's ``reasonbench.plugins`` entry point names."""
    found: list[EntryPoint] = sorted(
        entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)
    )
    for entry in found:
        try:
            entry.load()
            if entry.dist is not None:
                _LOADED[entry.module] = (entry.dist.name, entry.dist.version)
            else:
                _LOADED.setdefault(entry.module, None)
        except Exception as exc:
            text = " ".join(str(exc).split()) or type(exc).__name__
            package = entry.dist.name if entry.dist is not None else "an installed package"
            raise PluginError(
                f"plugin {entry.value!r} of {package} cannot be imported "
                f"({type(exc).__name__}: {text}), entry point {entry.name!r} of group "
                f"{ENTRY_POINT_GROUP}"
            ) from None


def loaded_plugins() -> list[dict[str, str | None]]:
    """The plug-ins this process loaded and still has imported, sorted by module: named with
    ``plugins``, loaded through an entry point, or carried from an input
    (:func:`carry_plugins`). Each is ``{"module", "distribution", "version"}``: the installed
    distribution that provides the module and its version, ``None`` for a module that no
    installed distribution provides (one on ``PYTHONPATH``). What a command records."""
    modules = sorted(m for m in _LOADED if m in sys.modules)
    if not modules:
        return []
    providers: Mapping[str, list[str]] | None = None
    out: list[dict[str, str | None]] = []
    for module in modules:
        known = _LOADED[module]
        if known is None:
            if providers is None:
                providers = packages_distributions()
            known = _distribution(module, providers)
        name, release = known if known is not None else (None, None)
        out.append({"module": module, "distribution": name, "version": release})
    return out


def _distribution(module: str, providers: Mapping[str, list[str]]) -> tuple[str, str | None] | None:
    names = sorted(set(providers.get(module.split(".")[0], [])))
    if not names:
        return None
    try:
        return names[0], version(names[0])
    except PackageNotFoundError:
        return names[0], None


def recorded_modules(recorded: Any, source: str) -> list[str]:
    """The modules of a recorded ``plugins`` list (:func:`loaded_plugins`'s form); a list of
    another form is a :class:`PluginError` naming ``source``."""
    if recorded is None:
        return []
    items = recorded if isinstance(recorded, list) else [recorded]
    modules = [item.get("module") if isinstance(item, Mapping) else None for item in items]
    if not isinstance(recorded, list) or not all(
        isinstance(m, str)
        and MODULE.fullmatch(m)
        and m.split(".")[0] not in sys.stdlib_module_names  # no plug-in: never imported for one
        for m in modules
    ):
        shown = json.dumps(recorded)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise PluginError(
            f"{source} records plugins as {shown}, not a list of {{module, distribution, "
            f"version}}, in {Path(source).name}"
        )
    return [str(m) for m in modules]


def carry_plugins(recorded: Any, source: str) -> None:
    """Load the plug-ins that ``source`` (an input file) records as ``recorded`` and this
    process has not loaded yet, as ``plugins=[...]`` would: what they registered is then here
    to read the file with, and what this command writes records them again. Plug-ins that
    cannot be imported are a :class:`PluginError`, one line naming them and the key to set."""
    modules = recorded_modules(recorded, source)  # checks the form: a list of objects
    entries: dict[str, Mapping[str, Any]] = {str(e["module"]): e for e in recorded or []}
    failed: list[tuple[str, tuple[str, str, str]]] = []
    for module in modules:
        problem = _import(module)
        if problem is not None:
            failed.append((module, problem))
    if not failed:
        return
    names = [m for m, _ in failed]
    provided = {m: _provider(entries.get(m, {})) for m in names}
    if len(failed) == 1:
        ((module, (what, detail, _)),) = failed
        which = f"the plug-in {module}{provided[module]}, which {what} here ({detail})"
    else:
        said = "; ".join(f"{m}{provided[m]} {what}: {detail}" for m, (what, detail, _) in failed)
        which = f"the plug-ins {', '.join(names)}, which cannot be loaded here ({said})"
    dists = sorted(
        {str(entries[m]["distribution"]) for m in names if entries[m].get("distribution")}
    )
    raise PluginError(
        f"{source} was written with {which}; set plugins=[{','.join(names)}] with "
        f"{'their packages' if len(names) > 1 else 'its package'} on PYTHONPATH "
        f"(or install {', '.join(dists) or ('them' if len(names) > 1 else 'it')}), "
        f"in {Path(source).name}"
    )


def _provider(entry: Mapping[str, Any]) -> str:
    """`` (dist version)`` of a recorded plug-in, or nothing."""
    said = " ".join(str(entry[k]) for k in ("distribution", "version") if entry.get(k))
    return f" ({said})" if said else ""


def carry_plugins_from(path: Path) -> None:
    """:func:`carry_plugins` for the JSON object in ``path``, whose ``plugins`` key (absent: no
    plug-in) lists them. A file that is missing or not a JSON object is left to the command
    that reads it, which says what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return
    if isinstance(data, dict) and "plugins" in data:
        carry_plugins(data["plugins"], str(path))
