"""Entry point of the ``reasonbench`` console script."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reasonbench import __version__
from reasonbench.cli import (
    benchmark,
    certify,
    clauses,
    evaluate,
    hydra_app,
    integrations,
    judge_card,
    learning,
    receipt,
    results,
)
from reasonbench.cli.errors import guarded

DESCRIPTION = """\
reasonbench audits AI evaluators ("judges") by their reasons, not only their labels.

An evaluator state has three declared sources: grounds G (evidence), norms N (rules) and
authority A (which rules may govern; no authority => 'refer'). When a verdict changes between
two versions, executing all 2^3 old/new hybrids (the judgment cube) through a trusted
adjudicator yields the judgment receipt: every inclusion-minimal set of replaced sources that
reproduces the new verdict.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reasonbench",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'reasonbench COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"reasonbench {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    receipt.add_parser(subparsers)
    clauses.add_parser(subparsers)
    benchmark.add_parsers(subparsers)
    results.add_parsers(subparsers)
    learning.add_parsers(subparsers)
    judge_card.add_parser(subparsers)
    evaluate.add_parser(subparsers)
    certify.add_parser(subparsers)
    integrations.add_parsers(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    code = hydra_app.dispatch(argv)
    if code is not None:
        return code
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help()
        return 0
    return guarded(argv[0] if argv else "", lambda: int(args.handler(args)))


if __name__ == "__main__":  # the console script and `python -m reasonbench` add Ctrl-C's one line
    sys.exit(main())
