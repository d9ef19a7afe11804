"""What a prediction — or gold — says about one transition: the one answer type.

Every consumer compares the same four things: the old and revised verdicts, the receipt family
(masks over the sources, canonical order) and, for cube answers, the cells. ``None`` means "not
said": a target that does not carry the field, or an output that did not parse. Failure
accounting (:mod:`reasonbench.core.accounting`), the paired-control relations
(:mod:`reasonbench.controls`) and the frozen target parsers (:mod:`reasonbench.targets`) all use
this type, so a parsed output can be scored and paired without conversion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reasonbench.core.cube import Cube
from reasonbench.core.receipt import Receipt, family_masks, receipt_of
from reasonbench.core.sources import GNA

__all__ = ["Answer"]


@dataclass(frozen=True)
class Answer:
    old: str | None
    new: str | None
    sets: tuple[int, ...] | None  # receipt masks, canonical order; () = predicted stable
    cube: Cube | None = None

    @classmethod
    def from_family(
        cls,
        old: str | None,
        new: str | None,
        family: Sequence[Sequence[str]] | None,
        sources: tuple[str, ...] = GNA,
        cube: Cube | None = None,
    ) -> Answer:
        """From a JSON receipt family; sets are put in canonical order so equality is exact."""
        return cls(old, new, None if family is None else family_masks(family, sources), cube)

    @classmethod
    def of_receipt(cls, receipt: Receipt, cube: Cube | None = None) -> Answer:
        return cls(receipt.old, receipt.new, receipt.sets, cube)

    @classmethod
    def of_cube(cls, cube: Cube) -> Answer:
        """A cube answer: endpoints and receipt derived from the cells."""
        return cls.of_receipt(receipt_of(cube), cube)

    @property
    def changed(self) -> bool | None:
        if self.old is None or self.new is None:
            return None
        return self.old != self.new
