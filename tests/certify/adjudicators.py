"""Real adjudicators the certify tests run: Python rule functions and a command script.

``grade`` is the rule of docs/certify.md: an essay passes when its score reaches the rubric's
pass mark, and is referred when the grader has no authority for the course.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

LABELS = ("fail", "pass", "refer")
# a lone surrogate (valid JSON as "\ud800"), and characters str.splitlines() breaks a line at
NOTE_NEW = "late\ud800 fee\u2028waived\x85\r"
FLAG = "flag\u2028\ud800"  # a source name is any string without "+"
_lock = threading.Lock()
_calls: dict[str, int] = {}


def grade(hybrid: dict[str, Any]) -> str:
    grader, score, rubric = hybrid["grader"], hybrid["score"], hybrid["rubric"]
    if rubric["course"] not in grader["courses"]:
        return "refer"
    return "pass" if score >= rubric["pass_mark"] else "fail"


def note_rule(hybrid: dict[str, Any]) -> str:
    """``waived`` when the ``note`` source arrived exactly as :data:`NOTE_NEW` (so every
    character of it travelled intact), else ``charged``; a true :data:`FLAG` source refers."""
    if hybrid[FLAG]:
        return "refer"
    return "waived" if hybrid["note"] == NOTE_NEW else "charged"


def json_words(hybrid: dict[str, Any]) -> str:
    """``grade`` in labels that Hydra would read as JSON: fail, pass, refer -> false, true, null."""
    return {"fail": "false", "pass": "true", "refer": "null"}[grade(hybrid)]


def table_rule(hybrid: dict[str, Any]) -> str:
    """The verdict the case's own table gives its cell: each source's value is ``{"new": bool,
    "table": [...]}``, the cell is the set of sources whose value is new (bit i: the i-th
    source, in the hybrid's order), and every source carries the same table of 2^k verdicts.
    Any cube, monotone or not, is a case file away."""
    values = list(hybrid.values())
    cell = sum(1 << i for i, value in enumerate(values) if value["new"])
    return str(values[0]["table"][cell])


def logged_grade(hybrid: dict[str, Any]) -> str:
    """``grade``, appending each execution to ``$CERTIFY_TEST_LOG`` (one line per call) after a
    pause, so a test can count executions across processes and kill a run half-way."""
    time.sleep(float(os.environ.get("CERTIFY_TEST_DELAY", "0")))
    with _lock, open(os.environ["CERTIFY_TEST_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(hybrid, sort_keys=True) + "\n")
    return grade(hybrid)


def crash_on_new_rubric(hybrid: dict[str, Any]) -> str:
    if hybrid["rubric"]["pass_mark"] == 50:
        raise RuntimeError("rubric service unavailable")
    return grade(hybrid)


def hang_on_new_rubric(hybrid: dict[str, Any]) -> str:
    if hybrid["rubric"]["pass_mark"] == 50:
        time.sleep(5)
    return grade(hybrid)


def maybe_on_new_rubric(hybrid: dict[str, Any]) -> str:
    return "maybe" if hybrid["rubric"]["pass_mark"] == 50 else grade(hybrid)


def number_verdict(hybrid: dict[str, Any]) -> Any:
    return 1


def _alternate(hybrid: dict[str, Any]) -> bool:
    """True on the 1st, 3rd, ... call with this hybrid: deterministic 'nondeterminism'."""
    key = json.dumps(hybrid, sort_keys=True)
    with _lock:
        _calls[key] = _calls.get(key, 0) + 1
        return _calls[key] % 2 == 1


def _regraded_under_old_rubric(hybrid: dict[str, Any], score: int) -> bool:
    return bool(hybrid["score"] == score and hybrid["rubric"]["pass_mark"] == 60)


def flaky_regrade(hybrid: dict[str, Any]) -> str:
    """The regraded score 62 under the old rubric flips between pass and fail on every call."""
    if _regraded_under_old_rubric(hybrid, 62) and not _alternate(hybrid):
        return "fail"
    return grade(hybrid)


def noisy_regrade(hybrid: dict[str, Any]) -> str:
    """The regraded score 55 under the old rubric (fail) flips between fail and refer."""
    if _regraded_under_old_rubric(hybrid, 55) and not _alternate(hybrid):
        return "refer"
    return grade(hybrid)


class UnreadableOnNewRubric:
    """A plug-in kind (registered by the tests as ``unreadable``): ``logged_grade``, except
    that under the new rubric the "answer" cannot be read — a replayable failure, as an LLM's
    seeded unparsable reply, which the cache keeps like a verdict."""

    def __init__(self, target: str, options: object) -> None:
        self._id = f"unreadable:{target}"

    @property
    def id(self) -> str:
        return self._id

    def __call__(self, hybrid: dict[str, Any]) -> str:
        from reasonbench.certify import AdjudicatorFailure

        verdict = logged_grade(hybrid)
        if hybrid["rubric"]["pass_mark"] == 50:
            raise AdjudicatorFailure("unparsable", "no label in 'hmm'", replayable=True)
        return verdict


def main() -> None:
    """Command adjudicator: ``python -m tests.certify.adjudicators [mode]`` reads one hybrid."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "plain"
    hybrid = json.load(sys.stdin)
    if mode == "note":
        print(note_rule(hybrid))
        return
    verdict = grade(hybrid)
    new_rubric = hybrid["rubric"]["pass_mark"] == 50
    if mode == "json":
        print(json.dumps({"verdict": verdict, "why": "score against pass mark"}))
    elif mode == "garbage" and new_rubric:
        print("I think this essay should probably pass")
    elif mode == "crash" and new_rubric:
        print("traceback: rubric missing", file=sys.stderr)
        sys.exit(3)
    elif mode == "sleep" and new_rubric:
        time.sleep(5)
    else:
        print(verdict)


if __name__ == "__main__":
    main()


def slow_grade(hybrid: dict[str, Any]) -> str:
    """:func:`grade`, half a second per execution: a certify run long enough to interrupt
    (tests/cli/test_ctrl_c.py)."""
    import time

    time.sleep(0.5)
    return grade(hybrid)
