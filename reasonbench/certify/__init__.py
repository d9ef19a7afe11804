"""Receipts for the user's own evaluator (docs/certify.md).

``run_certify(CertifyConfig(...))`` reads a version change as JSONL (the old and new value of k
named sources per case), executes the hybrids through an adjudicator plug-in (a Python callable,
a command, an HTTP endpoint, an LLM judge behind an OpenAI-compatible server; more kinds register
a factory), certifies each case's receipt
exhaustively, adaptively within a budget, or under ``assume=monotone`` (re-asking a seeded sample
of the cells the assumption inferred), and writes receipts JSONL
plus a summary in JSON, Markdown and HTML. Executions are cached by (adjudicator, hybrid).
"""

from reasonbench.certify import builtin  # noqa: F401  (registers python, command, http)
from reasonbench.certify.cache import ExecutionCache, hybrid_key
from reasonbench.certify.cases import Case, CaseFileError, CaseSet, read_cases
from reasonbench.certify.casework import CERTIFIERS, STATUSES, CaseResult, certify_case
from reasonbench.certify.config import EXECUTIONS, CertifyConfig, CertifyError, ConfigError
from reasonbench.certify.execute import CellRuns, Executor, Failure
from reasonbench.certify.plugins import (
    FAILURE_KINDS,
    AdjudicatorFailure,
    AdjudicatorUnavailable,
    HybridAdjudicator,
    PluginOptions,
    RepeatableAdjudicator,
    execute_run,
    make_adjudicator,
    parse_verdict,
    register_kind,
    registered_kinds,
)
from reasonbench.certify.run import OUTPUTS, run_certify
from reasonbench.certify.summary import CertifySummary, RunStats
from reasonbench.io import OutputError

__all__ = [
    "CERTIFIERS",
    "EXECUTIONS",
    "FAILURE_KINDS",
    "OUTPUTS",
    "STATUSES",
    "AdjudicatorFailure",
    "AdjudicatorUnavailable",
    "Case",
    "CaseFileError",
    "CaseResult",
    "CaseSet",
    "CellRuns",
    "CertifyConfig",
    "CertifyError",
    "CertifySummary",
    "ConfigError",
    "ExecutionCache",
    "Executor",
    "Failure",
    "HybridAdjudicator",
    "OutputError",
    "PluginOptions",
    "RepeatableAdjudicator",
    "RunStats",
    "certify_case",
    "execute_run",
    "hybrid_key",
    "make_adjudicator",
    "parse_verdict",
    "read_cases",
    "register_kind",
    "registered_kinds",
    "run_certify",
]
