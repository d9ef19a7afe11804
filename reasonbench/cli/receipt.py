"""``reasonbench receipt``: certify the receipt of a cube given as JSON.

Input (stdin or ``cube=FILE``)::

    {"sources": ["G", "N", "A"], "cells": {"": "deny", "G": "approve", ..., "G+N+A": "approve"}}

Output (stdout): the receipt as JSON; with ``adaptive=true`` the cells are queried as a black box
and ``"queries"`` reports how many interior cells were consulted.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from omegaconf import DictConfig

from reasonbench.cli.hydra_app import add_hydra_parsers
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


HELP = "certify the judgment receipt of a cube given as JSON (stdin or cube=FILE)"


def add_parser(subparsers: Any) -> None:
    add_hydra_parsers(
        subparsers,
        {"receipt": (run, HELP)},
        legacy={"receipt": {"--cube": ("cube", True), "--adaptive": ("adaptive", False)}},
    )


def run(cfg: DictConfig) -> int:
    if cfg.cube is not None:
        try:
            with open(cfg.cube, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise InputError(f"cannot read {cfg.cube!r} ({exc.strerror}), key cube") from None
    else:
        text = sys.stdin.read()
    print(json.dumps(certify_json(text, adaptive=bool(cfg.adaptive))))
    return 0
