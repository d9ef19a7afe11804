"""Template families of a stratum, as loaded from its validated data file.

A *family* is one complete wording of a stratum's sources (key -> ``str.format`` template);
Which family is held out for the linguistic-shift split is a benchmark choice, stated once, in
``conf/benchmark/*.yaml`` (``shifts.held_out_family``). Each stratum validates its own keys and
placeholders when it loads the file; this is the shape they all load into.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class TemplateSet:
    """All families, in file order."""

    families: Mapping[str, Mapping[str, str]]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.families)

    def family(self, name: str) -> Mapping[str, str]:
        try:
            return self.families[name]
        except KeyError:
            raise KeyError(
                f"unknown template family {name!r}; known: {list(self.families)}"
            ) from None


def placeholders(template: str) -> set[str]:
    """The field names a ``str.format`` template uses (``ValueError`` if it is malformed)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
