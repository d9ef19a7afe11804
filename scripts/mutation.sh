#!/usr/bin/env bash
# Mutation testing with mutmut 3 (docs/testing.md): scripts/mutation.sh [package ...] [-j N]
# runs reasonbench/<package> (the packages of [tool.reasonbench.mutation] in pyproject.toml, all
# by default) against only the tests that concern it, in mutants/<package>/ (the working tree is
# not touched), and prints each package's score and surviving mutants. Resumes where an
# interrupted run stopped; --only PATTERN runs some mutants. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${REASONBENCH_VENV:-.venv}"
exec "$VENV/bin/python" scripts/mutation.py "$@"
