"""The built-in plug-in kinds, byte for byte: what a command reads on stdin and an endpoint in its
request, and the exact kind and detail of every failure (a timeout, a crash, output that is not
UTF-8), each from a real subprocess or a loopback server this test starts and stops. The
details are what a user reads in the summary, so they are pinned, not just their kind."""

from __future__ import annotations

import errno
import os
import shlex
import socket
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from reasonbench.certify import AdjudicatorFailure, ConfigError, PluginOptions, make_adjudicator
from reasonbench.certify.builtin import CommandAdjudicator

HYBRID = {"note": "café\ud800", "score": 55}  # non-ASCII, and a lone surrogate (valid JSON)
# what the hybrid is on the wire: JSON with ensure_ascii=False, UTF-8, a lone surrogate escaped
WIRE = b'{"note": "caf\xc3\xa9\\ud800", "score": 55}'
NOT_UTF8 = b"verdict \xff\xfe"
REPLACED = "verdict \ufffd\ufffd"  # NOT_UTF8 decoded with errors="replace"


def failure(spec: str, hybrid: dict[str, Any], timeout_s: float = 10.0) -> AdjudicatorFailure:
    with pytest.raises(AdjudicatorFailure) as info:
        make_adjudicator(spec, PluginOptions(timeout_s))(hybrid)
    return info.value


def config_error(spec: str) -> str:
    with pytest.raises(ConfigError) as info:
        make_adjudicator(spec)
    return str(info.value)


# --- python: ---------------------------------------------------------------------------------


class Judges:
    """A callable reached through an attribute path (``Judges.strict``)."""

    @staticmethod
    def strict(hybrid: dict[str, Any]) -> str:
        return "fail"


def thread_kind(hybrid: dict[str, Any]) -> str:
    return "daemon" if threading.current_thread().daemon else "foreground"


def strip_courses(hybrid: dict[str, Any]) -> str:
    hybrid["grader"]["courses"].clear()  # a careless judge that edits what it was given
    return "refer"


def test_a_python_target_is_module_then_an_attribute_path_after_the_last_colon() -> None:
    nested = make_adjudicator("python:tests.certify.test_mutants_builtin:Judges.strict")
    assert nested({"score": 1}) == "fail"
    # the module is everything before the last colon, so a colon in the function part is not
    # read as a second separator
    assert config_error("python:tests.certify.adjudicators:grade:x").startswith(
        "adjudicator=python:tests.certify.adjudicators:grade:x: cannot import "
        "'tests.certify.adjudicators:grade' ("
    )


@pytest.mark.parametrize("target", [":grade", "tests.certify.adjudicators:"])
def test_a_python_target_needs_both_a_module_and_a_function(target: str) -> None:
    assert config_error(f"python:{target}") == (
        f"adjudicator=python:{target}: expected python:<module>:<function>"
    )


def test_a_missing_function_is_a_config_error_not_an_attribute_error() -> None:
    assert config_error("python:tests.certify.adjudicators:no_such_rule") == (
        "adjudicator=python:tests.certify.adjudicators:no_such_rule: 'no_such_rule' is not a "
        "callable of 'tests.certify.adjudicators'"
    )


def test_a_python_call_runs_in_a_daemon_thread_on_a_copy() -> None:
    """An abandoned (timed-out) call must not keep the process alive at exit, and a function
    that edits its argument must not change the hybrid the executor keeps using."""
    assert make_adjudicator("python:tests.certify.test_mutants_builtin:thread_kind")({}) == (
        "daemon"
    )
    hybrid = {"grader": {"name": "Ana", "courses": ["ENG101"]}}
    editing = make_adjudicator("python:tests.certify.test_mutants_builtin:strip_courses")
    assert editing(hybrid) == "refer"
    assert hybrid == {"grader": {"name": "Ana", "courses": ["ENG101"]}}


def test_python_failures_say_what_happened() -> None:
    new_rubric = {"rubric": {"pass_mark": 50}}
    hang = failure("python:tests.certify.adjudicators:hang_on_new_rubric", new_rubric, 0.2)
    assert (hang.kind, hang.detail) == ("timeout", "no verdict after 0.2 s")
    label = failure("python:tests.certify.adjudicators:number_verdict", new_rubric)
    assert (label.kind, label.detail) == ("label", "returned 1 (int), not a label")
    assert str(label) == "label: returned 1 (int), not a label"


# --- command: --------------------------------------------------------------------------------


def script(tmp_path: Path, body: str) -> str:
    """``command:`` running a Python script with ``body`` (sys, json, time imported)."""
    path = tmp_path / "judge.py"
    path.write_text("import json, sys, time\n" + body, encoding="utf-8")
    return "command:" + shlex.join([sys.executable, str(path)])


def test_a_command_gets_the_hybrid_as_utf8_json_on_stdin(tmp_path: Path) -> None:
    seen = tmp_path / "stdin.bin"
    spec = script(
        tmp_path, f"open({str(seen)!r}, 'wb').write(sys.stdin.buffer.read())\nprint('pass')\n"
    )
    assert make_adjudicator(spec)(HYBRID) == "pass"
    assert seen.read_bytes() == WIRE


@pytest.mark.parametrize("target", ['""', "''"])
def test_a_quoted_empty_command_names_no_command(target: str) -> None:
    assert config_error(f"command:{target}") == "adjudicator=command: names no command"


def test_only_quotes_around_a_command_are_stripped() -> None:
    # a command that merely begins and ends with the same letter is not quoted
    assert make_adjudicator("command:Xjudge --display X").id == "command:Xjudge --display X"
    assert make_adjudicator("command:'judge --display X'").id == "command:judge --display X"


def test_command_failures_say_what_happened(tmp_path: Path) -> None:
    sleep = failure(script(tmp_path, "time.sleep(5)\n"), HYBRID, timeout_s=0.5)
    assert (sleep.kind, sleep.detail) == ("timeout", "no verdict after 0.5 s")
    # stderr is shown even when it is not UTF-8: undecodable bytes are replaced, not fatal
    crash = failure(
        script(tmp_path, f"sys.stderr.buffer.write({NOT_UTF8!r})\nsys.exit(4)\n"), HYBRID
    )
    assert (crash.kind, crash.detail) == ("crash", f"exit status 4: {REPLACED!r}")
    binary = failure(script(tmp_path, f"sys.stdout.buffer.write({NOT_UTF8!r})\n"), HYBRID)
    assert (binary.kind, binary.detail) == ("unparsable", "output is not UTF-8 text")
    assert not binary.replayable


# --- http: -----------------------------------------------------------------------------------


class Recorder(BaseHTTPRequestHandler):
    """POST /pass: the verdict ``pass``; /binary: a body that is not UTF-8; /error-binary: HTTP
    502 with such a body; /hangup: no answer, the connection closed; /slow: no answer until
    the test ends. Every request's path, headers and body are kept in ``server.seen``."""

    server: RecordingServer

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.seen.append((self.path, dict(self.headers), body))
        if self.path == "/hangup":
            self.close_connection = True
            return
        if self.path == "/slow":
            self.server.released.wait(10)
        status, data = {
            "/binary": (200, NOT_UTF8),
            "/error-binary": (502, NOT_UTF8),
        }.get(self.path, (200, b"pass"))
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


class RecordingServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Recorder)
        self.seen: list[tuple[str, dict[str, str], bytes]] = []
        self.released = threading.Event()

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # /slow answers a client that gave up: its broken pipe is expected


@pytest.fixture
def recorder() -> Iterator[RecordingServer]:
    server = RecordingServer()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.released.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def base(server: RecordingServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


def test_an_endpoint_gets_the_hybrid_as_a_json_post(recorder: RecordingServer) -> None:
    adjudicator = make_adjudicator(f"http:{base(recorder)}/pass")
    assert adjudicator.id == f"http:{base(recorder)}/pass"
    assert adjudicator(HYBRID) == "pass"
    ((path, headers, body),) = recorder.seen
    assert path == "/pass" and body == WIRE
    assert headers["Content-Type"] == "application/json"


def test_https_urls_are_endpoints_too() -> None:
    # built without a connection: the URL is checked, not reached
    for spec in ("http:https://judge.example/v1", "https://judge.example/v1"):
        assert make_adjudicator(spec).id == "http:https://judge.example/v1"


def test_endpoint_failures_say_what_happened(recorder: RecordingServer) -> None:
    url = base(recorder)
    binary = failure(f"http:{url}/binary", HYBRID)
    assert (binary.kind, binary.detail) == ("unparsable", "response body is not UTF-8 text")
    error = failure(f"http:{url}/error-binary", HYBRID)
    assert (error.kind, error.detail) == ("crash", f"HTTP 502: {REPLACED!r}")
    hangup = failure(f"http:{url}/hangup", HYBRID)
    assert (hangup.kind, hangup.detail) == (
        "crash",
        f"connection to {url}/hangup failed: Remote end closed connection without response",
    )
    slow = failure(f"http:{url}/slow", HYBRID, timeout_s=0.2)
    assert (slow.kind, slow.detail) == ("timeout", "no verdict after 0.2 s")


def test_an_endpoint_that_is_not_there() -> None:
    with socket.create_server(("127.0.0.1", 0)) as gone:
        port = gone.getsockname()[1]  # closed on leaving: nothing listens there any more
    url = f"http://127.0.0.1:{port}/pass"
    refused = failure(f"http:{url}", HYBRID)
    reason = f"[Errno {errno.ECONNREFUSED}] {os.strerror(errno.ECONNREFUSED)}"
    assert (refused.kind, refused.detail) == ("crash", f"cannot reach {url}: {reason}")


def test_a_request_that_cannot_be_sent_in_time_is_a_timeout() -> None:
    """A server that accepts the connection but never reads: sending a large hybrid stalls once
    the socket buffers are full, inside ``urlopen`` (which wraps it in a ``URLError``)."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        url = f"http://127.0.0.1:{listening.getsockname()[1]}/stuck"
        big = {"essay": "x" * (32 << 20)}
        stuck = failure(f"http:{url}", big, timeout_s=0.3)
    assert (stuck.kind, stuck.detail) == ("timeout", "no verdict after 0.3 s")


def test_quotes_are_stripped_only_when_they_enclose_the_whole_line() -> None:
    """Two quoted words that open and close the target are two words: stripping the outer
    quotes once split ``"/opt/my judge" --rubric "new rubric.json"`` into the wrong argv."""
    spec = 'command:"/opt/my judge" --rubric "new rubric.json"'
    argv = CommandAdjudicator('"/opt/my judge" --rubric "new rubric.json"', PluginOptions()).argv
    assert argv == ["/opt/my judge", "--rubric", "new rubric.json"]
    assert make_adjudicator(spec).id == "command:'/opt/my judge' --rubric 'new rubric.json'"
    whole = CommandAdjudicator("\"python judge.py --rubric 'new rubric.json'\"", PluginOptions())
    assert whole.argv == ["python", "judge.py", "--rubric", "new rubric.json"]
