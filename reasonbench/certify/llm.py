"""``llm:<base_url>``: an LLM judge behind an OpenAI-compatible server, through the served-model
client (:mod:`reasonbench.serve`: retries, timeouts, the API key read from a named variable).

Each execution fills the prompt template with the hybrid (:mod:`reasonbench.certify.prompt`),
asks the model once, and reads the verdict from its answer (reasoning removed). Run ``r`` of a
hybrid sends seed ``seed + r``, so sampled repeats can disagree; greedy ones should not. The
plug-in's ``id`` — the certify cache key — digests everything that decides an answer (model, API,
template, system prompt, decoding, seed, extra request fields) and how it is read (labels,
regex); the run index is the cache's own. The base URL, key variable, retries and timeout do not
decide an answer and are not in it. The client keeps no cache of its own (one cache, not two):
an unreadable answer is cached as a replayable failure, so a rerun sends no request at all.

A server that cannot answer (``ServeError``: retries exhausted, a refused request) stops the run
(:class:`~reasonbench.certify.plugins.AdjudicatorUnavailable`); cached executions stay.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.certify.config import ConfigError
from reasonbench.certify.plugins import AdjudicatorUnavailable, PluginOptions, register_kind
from reasonbench.certify.prompt import Template, VerdictReader
from reasonbench.serve import Client, Endpoint, RetryPolicy, Sampling, ServeError
from reasonbench.serve.wire import Input

__all__ = ["OPTIONS", "LlmAdjudicator"]

OPTIONS: dict[str, tuple[type | tuple[type, ...], Any]] = {
    # key: (accepted types, default); docs/certify.md has one line per key
    "model": (str, None),
    "api": (str, "chat"),
    "api_key_env": ((str, type(None)), None),
    "template": ((str, type(None)), None),
    "template_file": ((str, type(None)), None),
    "system": ((str, type(None)), None),
    "temperature": ((int, float), 0.0),
    "top_p": ((int, float), 1.0),
    "max_tokens": (int, 16),
    "stop": ((list, tuple, str), ()),
    "seed": (int, 0),
    "verdict_regex": ((str, type(None)), None),
    "extra_body": (dict, {}),
    "retry": (dict, {}),
}


def _options(extra: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(extra) - set(OPTIONS))
    if unknown:
        raise ConfigError(
            f"plugin_options.{unknown[0]}: not an option of the llm judge; its options: "
            f"{', '.join(OPTIONS)}"
        )
    values = {}
    for key, (types, default) in OPTIONS.items():
        value = extra.get(key, default)
        if isinstance(value, bool) or not isinstance(value, types):
            if key == "model" and value is None:
                raise ConfigError("plugin_options.model: name the served model (required)")
            raise ConfigError(f"plugin_options.{key}={value!r}: wrong type")
        values[key] = value
    if isinstance(values["stop"], str):
        values["stop"] = (values["stop"],)
    return values


def _template(values: Mapping[str, Any]) -> Template:
    inline, path = values["template"], values["template_file"]
    if (inline is None) == (path is None):
        raise ConfigError("plugin_options: give exactly one of template (text) and template_file")
    if inline is not None:
        return Template(inline, "plugin_options.template")
    where = f"plugin_options.template_file={path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: cannot read it ({exc})") from None
    return Template(text, where)


@register_kind("llm")
class LlmAdjudicator:
    """An LLM judge: ``llm:<base_url>`` (``…/v1``), configured by ``plugin_options``."""

    def __init__(self, target: str, options: PluginOptions) -> None:
        if not target.startswith(("http://", "https://")):
            raise ConfigError(
                f"adjudicator=llm:{target}: the target is the server's base URL (http://…/v1)"
            )
        values = _options(options.extra)
        self.template = _template(values)
        if options.sources:
            self.template.check(options.sources)
        self.reader = VerdictReader(options.labels, values["verdict_regex"])
        if values["system"] is not None and values["api"] != "chat":
            raise ConfigError("plugin_options.system: a system prompt needs api=chat")
        try:
            self.endpoint = Endpoint(
                target,
                values["model"],
                api=values["api"],
                api_key_env=values["api_key_env"],
                concurrency=1,  # one request per execution; certify's workers run them at once
                timeout_s=options.timeout_s,
                extra_body=dict(values["extra_body"]),
            )
            self.sampling = Sampling(
                float(values["temperature"]),
                float(values["top_p"]),
                values["max_tokens"],
                tuple(str(s) for s in values["stop"]),
            )
            self.retry = RetryPolicy(**values["retry"])
        except ServeError as exc:
            raise ConfigError(f"plugin_options: {exc}") from None
        except TypeError as exc:
            raise ConfigError(f"plugin_options.retry: {exc}") from None
        self.system: str | None = values["system"]
        self.seed: int = values["seed"]
        decides = {
            "model": self.endpoint.model,
            "api": self.endpoint.api,
            "template": self.template.text,
            "system": self.system,
            "sampling": self.sampling.to_json(),
            "seed": self.seed,
            "extra_body": self.endpoint.extra_body,
            "labels": sorted(self.reader.labels),
            "verdict_regex": values["verdict_regex"],
        }
        text = json.dumps(decides, sort_keys=True, ensure_ascii=False)
        self._id = f"llm:{self.endpoint.model} [{hashlib.sha256(text.encode()).hexdigest()[:16]}]"
        self._local = threading.local()
        self._stopped: str | None = None

    @property
    def id(self) -> str:
        return self._id

    def prompt(self, hybrid: Mapping[str, Any]) -> Input:
        """What is sent for ``hybrid``: the filled template (chat: after the system message)."""
        text = self.template.fill(hybrid)
        if self.system is None:
            return text
        return [{"role": "system", "content": self.system}, {"role": "user", "content": text}]

    def _client(self) -> Client:
        # one client per worker thread: each ask runs its own event loop
        client: Client | None = getattr(self._local, "client", None)
        if client is None:
            client = self._local.client = Client(self.endpoint, None, self.retry)
        return client

    def execute(self, hybrid: Mapping[str, Any], run: int) -> str:
        if self._stopped is not None:  # another worker saw the server fail: do not retry it
            raise AdjudicatorUnavailable(self._stopped)
        item = self.prompt(hybrid)
        try:
            reply = self._client().ask([item], self.sampling, seed=self.seed + run)[0]
        except ServeError as exc:
            self._stopped = f"the llm judge stopped: {exc.reason}"
            raise AdjudicatorUnavailable(self._stopped) from None
        return self.reader.read(reply.text)

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        return self.execute(hybrid, 0)
