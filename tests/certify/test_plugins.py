"""Each plug-in kind against a real adjudicator: a Python function, a subprocess command, and an
HTTP endpoint served by a loopback server this test starts (and stops)."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from reasonbench.certify import (
    AdjudicatorFailure,
    ConfigError,
    PluginOptions,
    make_adjudicator,
    parse_verdict,
    registered_kinds,
    run_certify,
)
from tests.certify.adjudicators import grade
from tests.certify.conftest import CASES, EXPECTED, config, receipts

SCRIPT = Path(__file__).with_name("adjudicators.py")
OLD = {k: v["old"] for k, v in CASES[1]["sources"].items()}  # fail under the old rubric
NEW_RUBRIC = {**OLD, "rubric": CASES[1]["sources"]["rubric"]["new"]}  # pass_mark 50: pass


def command(mode: str = "plain") -> str:
    return f"command:{sys.executable} {SCRIPT} {mode}"


def failure(spec: str, hybrid: dict[str, object], timeout_s: float = 10.0) -> AdjudicatorFailure:
    with pytest.raises(AdjudicatorFailure) as info:
        make_adjudicator(spec, PluginOptions(timeout_s))(hybrid)
    return info.value


def test_builtin_kinds_are_registered() -> None:
    assert {"python", "command", "http"} <= set(registered_kinds())


def test_python_callable() -> None:
    adjudicator = make_adjudicator("python:tests.certify.adjudicators:grade")
    assert adjudicator.id == "python:tests.certify.adjudicators:grade"
    assert (adjudicator(OLD), adjudicator(NEW_RUBRIC)) == ("fail", "pass")
    spec = "python:tests.certify.adjudicators:"
    crash = failure(spec + "crash_on_new_rubric", NEW_RUBRIC)
    assert (crash.kind, crash.detail) == ("crash", "RuntimeError: rubric service unavailable")
    assert failure(spec + "hang_on_new_rubric", NEW_RUBRIC, timeout_s=0.2).kind == "timeout"
    assert failure(spec + "number_verdict", OLD).kind == "label"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("python:tests.certify.nowhere:grade", "cannot import"),
        ("python:tests.certify.adjudicators:LABELS", "is not a callable"),
        ("python:grade", "expected python:<module>:<function>"),
        ("judge:x", "unknown adjudicator kind 'judge'"),
        ("grade", "expected <kind>:<target>"),
        ("command:", "expected <kind>:<target>"),
        ("command:'unbalanced", "No closing quotation"),
        ("http:ftp://host/x", "must start with http://"),
    ],
)
def test_bad_specs_are_config_errors(spec: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        make_adjudicator(spec)


def test_command_reads_stdin_and_prints_the_verdict() -> None:
    plain = make_adjudicator(command())
    assert (plain(OLD), plain(NEW_RUBRIC)) == ("fail", "pass")
    quoted = make_adjudicator(f'command:"{sys.executable} {SCRIPT} json"')
    assert quoted(NEW_RUBRIC) == "pass"
    assert quoted.id == make_adjudicator(command("json")).id
    assert failure(command("garbage"), NEW_RUBRIC).kind == "unparsable"
    crash = failure(command("crash"), NEW_RUBRIC)
    assert (
        crash.kind == "crash"
        and "exit status 3" in crash.detail
        and "rubric missing" in crash.detail
    )
    assert failure(command("sleep"), NEW_RUBRIC, timeout_s=0.5).kind == "timeout"
    missing = failure("command:/nonexistent/judge", OLD)
    assert missing.kind == "crash" and "cannot run" in missing.detail


class Judge(BaseHTTPRequestHandler):
    """POST /plain, /json: the verdict; /garbage: prose; /error: HTTP 500; /slow: too late."""

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        hybrid = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        verdict = grade(hybrid)
        status, body = 200, verdict
        if self.path == "/json":
            body = json.dumps({"verdict": verdict})
        elif self.path == "/garbage":
            body = "the essay seems fine to me"
        elif self.path == "/error":
            status, body = 500, "judge exploded"
        elif self.path == "/slow":
            threading.Event().wait(2.0)
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def judge_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Judge)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_http_endpoint(judge_url: str) -> None:
    plain = make_adjudicator(f"http:{judge_url}/plain")
    assert (plain(OLD), plain(NEW_RUBRIC)) == ("fail", "pass")
    assert make_adjudicator(f"{judge_url}/json")(NEW_RUBRIC) == "pass"  # the bare URL form
    assert failure(f"http:{judge_url}/garbage", OLD).kind == "unparsable"
    error = failure(f"http:{judge_url}/error", OLD)
    assert error.kind == "crash" and "HTTP 500" in error.detail
    assert failure(f"http:{judge_url}/slow", OLD, timeout_s=0.3).kind == "timeout"


def test_http_endpoint_that_is_down() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Judge)
    port = server.server_address[1]
    server.server_close()  # nothing listens there any more
    assert failure(f"http:http://127.0.0.1:{port}/plain", OLD).kind == "crash"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [("pass\n", "pass"), ('"pass"', "pass"), ('{"verdict": "fail", "p": 0.9}', "fail")],
)
def test_parse_verdict(text: str, verdict: str) -> None:
    assert parse_verdict(text) == verdict


@pytest.mark.parametrize("text", ["", "I would say pass", "1", '{"label": "pass"}', "pass\nfail"])
def test_parse_verdict_rejects_garbage(text: str) -> None:
    with pytest.raises(AdjudicatorFailure) as info:
        parse_verdict(text)
    assert info.value.kind == "unparsable"


@pytest.mark.parametrize("kind", ["python", "command", "http"])
def test_each_kind_certifies_the_cases_end_to_end(
    kind: str, cases_file: Path, tmp_path: Path, judge_url: str
) -> None:
    spec = {
        "python": "python:tests.certify.adjudicators:grade",
        "command": command("json"),
        "http": f"http:{judge_url}/plain",
    }[kind]
    summary = run_certify(config(cases_file, tmp_path / kind, spec, execution="adaptive"))
    rows = receipts(tmp_path / kind)
    assert {i: (r["status"], r["receipt"] or []) for i, r in rows.items()} == EXPECTED
    assert summary.run is not None and summary.run.executed > 0
