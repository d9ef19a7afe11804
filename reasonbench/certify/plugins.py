"""Adjudicator plug-ins: a Protocol plus a registry of named factories.

A spec names a plug-in kind and its target, ``<kind>:<target>``: ``python:pkg.mod:fn``,
``command:python judge.py``, ``http:http://127.0.0.1:8000/judge`` (a spec that starts with
``http://`` or ``https://`` is the URL itself). A plug-in maps one hybrid (a JSON object:
source name -> value) to a raw verdict label, or raises :class:`AdjudicatorFailure`; the executor
checks the label against the declared set. New kinds register one factory (the LLM judge
registers ``llm``, lazily: aiohttp is imported only when a spec names it), no dispatch code
changes.

Two optional capabilities, each one protocol: a :class:`RepeatableAdjudicator` is told the run
index of each execution (a sampled judge derives its seed from it), and a failure raised with
``replayable=True`` is an *answer* (the judge replied, the reply is unreadable) that the cache
keeps, unlike a transient crash. :class:`AdjudicatorUnavailable` stops the whole run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from reasonbench.certify.config import CertifyError, ConfigError
from reasonbench.registry import Registry

__all__ = [
    "FAILURE_KINDS",
    "AdjudicatorFailure",
    "AdjudicatorUnavailable",
    "HybridAdjudicator",
    "PluginOptions",
    "RepeatableAdjudicator",
    "execute_run",
    "make_adjudicator",
    "parse_verdict",
    "register_kind",
    "registered_kinds",
]

FAILURE_KINDS = ("crash", "timeout", "label", "unparsable")
"""crash: exception / non-zero exit / HTTP error; timeout; label: a verdict outside the declared
set; unparsable: output that is neither JSON nor a bare label."""

BARE_LABEL = re.compile(r"[A-Za-z0-9_.:\-]+")


class AdjudicatorFailure(Exception):
    """One failed execution of one hybrid: ``kind`` in :data:`FAILURE_KINDS`, and what happened.

    ``replayable``: executing the same hybrid (same run) again would fail the same way, because
    the failure is in the answer itself (an LLM's seeded reply without a readable verdict), so
    the cache records it and a rerun does not ask again. Transient failures (crashes, timeouts)
    are not replayable: a rerun retries them."""

    def __init__(self, kind: str, detail: str, replayable: bool = False) -> None:
        assert kind in FAILURE_KINDS, kind
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.replayable = replayable


class AdjudicatorUnavailable(CertifyError):
    """The adjudicator cannot answer at all (its server is gone, refuses every request): no
    hybrid's answer would mean anything, so the run stops with this one line. Executions already
    cached stay; a rerun resumes."""


@runtime_checkable
class HybridAdjudicator(Protocol):
    """Maps one hybrid to a verdict label (unchecked), or raises :class:`AdjudicatorFailure`.

    Called from several threads at once; ``id`` names it in the execution cache."""

    @property
    def id(self) -> str: ...

    def __call__(self, hybrid: Mapping[str, Any]) -> str: ...


@runtime_checkable
class RepeatableAdjudicator(HybridAdjudicator, Protocol):
    """A plug-in told which run (0 .. repeats-1) of a hybrid it executes, e.g. to use seed
    ``seed + run``; the executor calls :meth:`execute` instead of ``__call__``."""

    def execute(self, hybrid: Mapping[str, Any], run: int) -> str: ...


def execute_run(adjudicator: HybridAdjudicator, hybrid: Mapping[str, Any], run: int) -> str:
    """Run ``run`` of ``hybrid``: plug-ins that do not care about the run are simply called."""
    if isinstance(adjudicator, RepeatableAdjudicator):
        return adjudicator.execute(hybrid, run)
    return adjudicator(hybrid)


@dataclass(frozen=True)
class PluginOptions:
    """What a factory gets besides its target: the per-execution timeout, the free-form
    ``plugin_options`` (``extra``), and what the run declares — its verdict ``labels`` and its
    ``sources`` in order (empty when the plug-in is built outside a run), so a plug-in can
    check itself against them before anything executes."""

    timeout_s: float = 30.0
    extra: Mapping[str, Any] = field(default_factory=dict)
    labels: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()


Factory = Callable[[str, PluginOptions], HybridAdjudicator]
KINDS: Registry[Factory] = Registry("adjudicator kind")


def register_kind(name: str) -> Callable[[Factory], Factory]:
    """Decorator: register the factory of plug-in kind ``name`` (one name, one factory)."""
    return KINDS.register(name)


def registered_kinds() -> tuple[str, ...]:
    return tuple(sorted(KINDS.names()))


def split_spec(spec: str) -> tuple[str, str]:
    if spec.startswith(("http://", "https://")):
        return "http", spec
    kind, sep, target = spec.partition(":")
    if not sep or not target.strip():
        raise ConfigError(
            f"adjudicator={spec!r}: expected <kind>:<target> with kind in {list(registered_kinds())}"
        )
    return kind, target.strip()


def make_adjudicator(spec: str, options: PluginOptions | None = None) -> HybridAdjudicator:
    """Build the plug-in a spec names; :class:`ConfigError` for an unknown kind or bad target."""
    kind, target = split_spec(spec)
    if kind not in KINDS:
        raise ConfigError(f"adjudicator={spec!r}: {KINDS.unknown(kind)}")
    return KINDS.get(kind)(target, options or PluginOptions())


def abbreviate(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def parse_verdict(text: str) -> str:
    """A verdict from printed output: a JSON string, a JSON object with a string ``"verdict"``,
    or one bare label (letters, digits, ``_.:-``) on its own; anything else is unparsable."""
    stripped = text.strip()
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError:
        if BARE_LABEL.fullmatch(stripped):
            return stripped
        raise AdjudicatorFailure(
            "unparsable", f"output is neither JSON nor a bare label: {abbreviate(stripped)!r}"
        ) from None
    if isinstance(value, dict) and isinstance(value.get("verdict"), str):
        return str(value["verdict"])
    if isinstance(value, str):
        return value
    raise AdjudicatorFailure(
        "unparsable",
        f'JSON output must be a string or {{"verdict": "<label>"}}: {abbreviate(stripped)!r}',
    )
