"""The built-in plug-in kinds: a Python callable, a command, an HTTP endpoint (and, registered
lazily so that its HTTP client is imported only when used, the LLM judge ``llm``).

Each receives the hybrid as a JSON object (source name -> value) and must answer within
``timeout_s``: the callable is called with a fresh ``dict`` and returns the label; the command gets
the JSON on stdin (no shell; arguments split like a POSIX shell) and prints the verdict on stdout;
the endpoint gets it as the body of a ``POST`` (``Content-Type: application/json``) and answers
in its body. Printed verdicts are read by :func:`~reasonbench.certify.plugins.parse_verdict`.
"""

from __future__ import annotations

import copy
import importlib
import json
import shlex
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from reasonbench.certify.config import ConfigError
from reasonbench.certify.plugins import (
    KINDS,
    AdjudicatorFailure,
    PluginOptions,
    abbreviate,
    parse_verdict,
    register_kind,
)
from reasonbench.core.canonical import json_utf8

__all__ = ["CommandAdjudicator", "HttpAdjudicator", "PythonAdjudicator"]


def _encode(hybrid: Mapping[str, Any]) -> bytes:
    return json_utf8(json.dumps(dict(hybrid), ensure_ascii=False))


class PythonAdjudicator:
    """``python:pkg.mod:fn``; ``fn(hybrid: dict) -> str``. A call that outlives ``timeout_s`` is
    abandoned in its (daemon) thread: Python cannot kill a thread, but the run goes on."""

    def __init__(self, target: str, options: PluginOptions) -> None:
        module_name, sep, attr = target.rpartition(":")
        if not sep or not module_name or not attr:
            raise ConfigError(f"adjudicator=python:{target}: expected python:<module>:<function>")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ConfigError(
                f"adjudicator=python:{target}: cannot import {module_name!r} ({exc})"
            ) from None
        fn: Any = module
        for part in attr.split("."):
            fn = getattr(fn, part, None)
        if not callable(fn):
            raise ConfigError(
                f"adjudicator=python:{target}: {attr!r} is not a callable of {module_name!r}"
            )
        self.fn: Callable[[dict[str, Any]], Any] = fn
        self.timeout_s = options.timeout_s
        self._id = f"python:{target}"

    @property
    def id(self) -> str:
        return self._id

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        box: dict[str, Any] = {}

        def call() -> None:
            try:
                box["value"] = self.fn(copy.deepcopy(dict(hybrid)))
            except BaseException as exc:  # noqa: BLE001 - everything the function raises is a crash
                box["error"] = f"{type(exc).__name__}: {exc}"

        worker = threading.Thread(target=call, daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        if worker.is_alive():
            raise AdjudicatorFailure("timeout", f"no verdict after {self.timeout_s:g} s")
        if "error" in box:
            raise AdjudicatorFailure("crash", box["error"])
        value = box["value"]
        if not isinstance(value, str):
            raise AdjudicatorFailure(
                "label", f"returned {value!r} ({type(value).__name__}), not a label"
            )
        return value


class CommandAdjudicator:
    """``command:<argv>``: the hybrid as JSON on stdin, the verdict on stdout, exit status 0."""

    def __init__(self, target: str, options: PluginOptions) -> None:
        try:
            self.argv = shlex.split(target)
            # command:"python judge.py" as written on a command line: quotes around the whole
            # line, not two quoted words that happen to open and close it
            if len(self.argv) == 1 and target[:1] == target[-1:] and target[:1] in ("'", '"'):
                self.argv = shlex.split(self.argv[0])
        except ValueError as exc:
            raise ConfigError(f"adjudicator=command:{target}: {exc}") from None
        if not self.argv:
            raise ConfigError("adjudicator=command: names no command")
        self.timeout_s = options.timeout_s
        self._id = "command:" + shlex.join(self.argv)

    @property
    def id(self) -> str:
        return self._id

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        try:
            done = subprocess.run(
                self.argv, input=_encode(hybrid), capture_output=True, timeout=self.timeout_s
            )
        except subprocess.TimeoutExpired:
            raise AdjudicatorFailure("timeout", f"no verdict after {self.timeout_s:g} s") from None
        except OSError as exc:
            raise AdjudicatorFailure(
                "crash", f"cannot run {self.argv[0]!r}: {exc.strerror}"
            ) from None
        if done.returncode != 0:
            stderr = done.stderr.decode("utf-8", "replace")
            raise AdjudicatorFailure(
                "crash", f"exit status {done.returncode}: {abbreviate(stderr)!r}"
            )
        try:
            out = done.stdout.decode("utf-8")
        except UnicodeDecodeError:
            raise AdjudicatorFailure("unparsable", "output is not UTF-8 text") from None
        return parse_verdict(out)


class HttpAdjudicator:
    """``http:URL``: ``POST`` the hybrid as JSON; a 2xx answer carries the verdict."""

    def __init__(self, target: str, options: PluginOptions) -> None:
        if not target.startswith(("http://", "https://")):
            raise ConfigError(
                f"adjudicator=http:{target}: the URL must start with http:// or https://"
            )
        self.url = target
        self.timeout_s = options.timeout_s
        self._id = f"http:{target}"

    @property
    def id(self) -> str:
        return self._id

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        request = urllib.request.Request(
            self.url, data=_encode(hybrid), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                body = response.read()
        except urllib.error.HTTPError as exc:
            text = exc.read().decode("utf-8", "replace")
            raise AdjudicatorFailure("crash", f"HTTP {exc.code}: {abbreviate(text)!r}") from None
        except TimeoutError:
            raise AdjudicatorFailure("timeout", f"no verdict after {self.timeout_s:g} s") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise AdjudicatorFailure(
                    "timeout", f"no verdict after {self.timeout_s:g} s"
                ) from None
            raise AdjudicatorFailure("crash", f"cannot reach {self.url}: {exc.reason}") from None
        except OSError as exc:
            raise AdjudicatorFailure("crash", f"connection to {self.url} failed: {exc}") from None
        try:
            return parse_verdict(body.decode("utf-8"))
        except UnicodeDecodeError:
            raise AdjudicatorFailure("unparsable", "response body is not UTF-8 text") from None


register_kind("python")(PythonAdjudicator)
register_kind("command")(CommandAdjudicator)
register_kind("http")(HttpAdjudicator)
KINDS.register_lazy("llm", "reasonbench.certify.llm:LlmAdjudicator")
