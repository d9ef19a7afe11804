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
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

__all__ = ["ENTRY_POINT_GROUP", "PluginError", "load_entry_points", "load_plugins"]

ENTRY_POINT_GROUP = "reasonbench.plugins"


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
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        # the module itself (or its package) is missing, not something it imports
        where = (
            "; is its package on PYTHONPATH?"
            if module.split(".")[0] == missing.split(".")[0]
            else ""
        )
        raise PluginError(
            f"plugin {module!r} cannot be imported (no module named {missing!r}{where}), "
            "key plugins"
        ) from None
    except Exception as exc:  # the plug-in's own code failed: name the plug-in, not reasonbench
        text = " ".join(str(exc).split()) or type(exc).__name__
        raise PluginError(
            f"plugin {module!r} failed while importing ({type(exc).__name__}: {text}), key plugins"
        ) from None


def load_entry_points() -> None:
    """Import what each installed package's ``reasonbench.plugins`` entry point names."""
    found: list[EntryPoint] = sorted(
        entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)
    )
    for entry in found:
        try:
            entry.load()
        except Exception as exc:
            text = " ".join(str(exc).split()) or type(exc).__name__
            package = entry.dist.name if entry.dist is not None else "an installed package"
            raise PluginError(
                f"plugin {entry.value!r} of {package} cannot be imported "
                f"({type(exc).__name__}: {text}), entry point {entry.name!r} of group "
                f"{ENTRY_POINT_GROUP}"
            ) from None
