"""``reasonbench clauses audit``: load and audit the organizational clause set.

Prints one line per clause (``PASS``/``FAIL``, sizes, reachable verdicts, problems) and a
summary line; with ``json=true`` prints one JSON document instead. Exit status: 0 when every clause
passes, 1 when some clause fails the audit, 2 when the data cannot be loaded at all (the error
names the file, clause and field).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from omegaconf import DictConfig

from reasonbench.cli.hydra_app import add_hydra_parsers
from reasonbench.strata.organizational.clause_audit import ClauseAudit, audit_all
from reasonbench.strata.organizational.loader import load_clause_set
from reasonbench.strata.organizational.templates import load_templates


def audit_report(data_dir: str | None = None) -> tuple[list[ClauseAudit], tuple[str, ...]]:
    """Audit every clause under ``data_dir``; ``ClauseError`` if loading fails."""
    clause_set = load_clause_set(data_dir)
    templates = load_templates(data_dir)
    return audit_all(clause_set.clauses, templates), templates.names


def format_line(audit: ClauseAudit) -> str:
    sizes = " ".join(f"{key}={value}" for key, value in audit.counts.items())
    head = f"{'PASS' if audit.ok else 'FAIL'} {audit.unit_id:<36} {sizes} labels={','.join(audit.labels)}"
    return head if audit.ok else f"{head}\n  - " + "\n  - ".join(audit.problems)


def summary(audits: list[ClauseAudit], families: tuple[str, ...]) -> dict[str, Any]:
    failed = [a.unit_id for a in audits if not a.ok]
    return {
        "clauses": len(audits),
        "passed": len(audits) - len(failed),
        "failed": failed,
        "template_families": list(families),
    }


HELP = "audit every clause: compiles, fields exist, all verdicts reachable, text covers rule"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "clauses",
        help="inspect the organizational clause set",
        description="Commands on the organizational stratum's clause data (data/clauses).",
    )
    commands = parser.add_subparsers(title="clause commands", metavar="COMMAND")
    add_hydra_parsers(
        commands,
        {"audit": (run, HELP)},
        prefix="clauses ",
        legacy={"audit": {"--json": ("json", False), "--data": ("clauses_dir", True)}},
    )
    parser.set_defaults(handler=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def run(cfg: DictConfig) -> int:
    # a ClauseError (data that cannot be loaded) is one line and exit 2 (cli.errors.guarded)
    audits, families = audit_report(cfg.clauses_dir)
    result = summary(audits, families)
    if cfg.json:
        print(json.dumps({"summary": result, "clauses": [a.to_json() for a in audits]}))
    else:
        for audit in audits:
            print(format_line(audit))
        print(
            f"{result['clauses']} clauses: {result['passed']} passed, {len(result['failed'])} "
            f"failed; template families: {', '.join(families)}"
        )
    return 0 if not result["failed"] else 1
