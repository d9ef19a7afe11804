"""A control kind that forgot ``cells=`` (docs/extending.md, "A new paired-control kind"): the
inverse under another name, whose control's cube is the parent's re-indexed by complement. It is
refused while the plug-in is imported, in one line saying what to set."""

from reasonbench.controls import CONTROL_KINDS, ControlKind

inverse = CONTROL_KINDS.get("inverse")
CONTROL_KINDS.register(
    "flip", ControlKind("flip", "flip", "flip", inverse.build, inverse.relation, inverse.audit)
)
