"""A plug-in whose own code fails while it is imported."""

raise RuntimeError("the toy plug-in is broken on purpose")
