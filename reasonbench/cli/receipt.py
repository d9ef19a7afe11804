"""``reasonbench receipt``: certify the receipt of a cube given as JSON.

Input (stdin or ``--cube FILE``)::

    {"sources": ["G", "N", "A"], "cells": {"": "deny", "G": "approve", ..., "G+N+A": "approve"}}

Output (stdout): the receipt as JSON; with ``--adaptive`` the cells are queried as a black box
and ``"queries"`` reports how many interior cells were consulted.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from reasonbench.core.certify import certify_adaptive
from reasonbench.core.cube import Cube
from reasonbench.core.receipt import receipt_of


class InputError(ValueError):
    """A problem with the user's cube JSON; the message names it."""


def parse_cube(text: str) -> Cube:
    """Parse and validate the cube JSON; ``InputError`` names the first problem found."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"input is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InputError("input must be a JSON object with keys 'sources' and 'cells'")
    extra = sorted(set(data) - {"sources", "cells"})
    if extra:
        raise InputError(f"unexpected key(s) {extra}; expected 'sources' and 'cells'")
    sources = data.get("sources")
    cells = data.get("cells")
    if not isinstance(sources, list) or not sources:
        raise InputError("'sources' must be a non-empty list of source names")
    if not all(isinstance(s, str) for s in sources):
        raise InputError("'sources' must contain only strings")
    if not isinstance(cells, dict):
        raise InputError("'cells' must be a JSON object mapping cell keys to verdicts")
    try:
        return Cube.from_cells(cells, tuple(sources))
    except ValueError as exc:
        raise InputError(str(exc)) from None


def certify_json(text: str, adaptive: bool = False) -> dict[str, Any]:
    """The output object for one input document (the testable core of the command)."""
    cube = parse_cube(text)
    if adaptive:
        certificate = certify_adaptive(cube.oracle(), cube.sources)
        return {**certificate.receipt.to_json(), "queries": certificate.queries}
    return receipt_of(cube).to_json()


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "receipt",
        help="certify the judgment receipt of a cube given as JSON",
        description=(
            "Read a judgment cube as JSON and print its receipt: every inclusion-minimal set "
            "of replaced sources whose hybrid reproduces the revised verdict. Cell keys are "
            "source names joined by '+' ('' for the empty set); any number of sources >= 1."
        ),
        epilog=(
            'example: echo \'{"sources":["G","N"],"cells":{"":"deny","G":"approve",'
            '"N":"deny","G+N":"approve"}}\' | reasonbench receipt'
        ),
    )
    parser.add_argument("--cube", metavar="FILE", help="read the cube from FILE instead of stdin")
    parser.add_argument(
        "--adaptive",
        action="store_true",
        help="treat cells as a black box: skip supersets of sufficient sets, report 'queries'",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.cube:
            try:
                with open(args.cube, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError as exc:
                raise InputError(f"cannot read --cube {args.cube!r}: {exc.strerror}") from None
        else:
            text = sys.stdin.read()
        result = certify_json(text, adaptive=args.adaptive)
    except InputError as exc:
        print(f"reasonbench receipt: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0
