"""``reasonbench compare``: two results — two metrics files or two results directories — checked
against the reproducibility contract (docs/reproducibility.md).

Every output of the main job carries one guarantee (:mod:`.contract`): the same bytes on any
machine, the same bytes on any x86-64 CPU under the portable kernels, or agreement within a stated
tolerance. ``compare`` checks each file under its guarantee, names every difference that breaks it
(``differs (<guarantee>): <file>:<path inside>: left=…, right=…``) and ends with one summary line
that names the class of every difference it tolerated. Formats are registered comparers
(:mod:`.formats`), discontinuous fits registered rules (:mod:`.fits`).
"""

from reasonbench.reports.compare.contract import CONTRACT, GUARANTEES, Clause, Guarantee, clause_for
from reasonbench.reports.compare.core import FIT_ATOL, Comparison, compare, compare_bytes
from reasonbench.reports.compare.fits import FITS, Fit
from reasonbench.reports.compare.formats import FORMATS
from reasonbench.reports.compare.walk import (
    CompareError,
    Digests,
    FileResult,
    Finding,
    Tolerance,
    json_path,
)

__all__ = [
    "CONTRACT",
    "FITS",
    "FIT_ATOL",
    "FORMATS",
    "GUARANTEES",
    "Clause",
    "Comparison",
    "CompareError",
    "Digests",
    "FileResult",
    "Finding",
    "Fit",
    "Guarantee",
    "Tolerance",
    "clause_for",
    "compare",
    "compare_bytes",
    "json_path",
]
