"""The typed configuration of one certification run, validated before anything executes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reasonbench.core.verdict_order import validate_order
from reasonbench.settings import help_line

__all__ = ["EXECUTIONS", "CertifyConfig", "CertifyError", "ConfigError"]

EXECUTIONS = ("exhaustive", "adaptive", "monotone")
MAX_SOURCES = 16  # 2^16 hybrids per case already takes a patient user


class CertifyError(ValueError):
    """Anything the user must fix; the message names the problem and where it is (one line)."""


class ConfigError(CertifyError):
    """A configuration value that cannot work."""


@dataclass(frozen=True)
class CertifyConfig:
    """What to certify, with what adjudicator, how, and where the outputs go.

    ``execution``: ``exhaustive`` (all 2^k hybrids), ``adaptive`` (the assumption-free certifier)
    or ``monotone`` (``assume=monotone``; ``order`` optionally names the verdict order, low to
    high). ``budget`` caps the interior queries per case for the two adaptive executions.
    ``verify_fraction`` (monotone): the share of the cells the assumption inferred that are
    re-asked to check it, sampled per case from ``verify_seed`` and the case id.
    ``repeats`` executes each hybrid that many times (nondeterministic adjudicators).
    ``adjudicator_version`` is part of the cache key: change it when the adjudicator changes.
    """

    cases: Path = field(
        metadata=help_line(
            'the JSONL case file: {"id": ..., "sources": {"<name>": {"old": ..., "new": ...}}}'
        )
    )
    adjudicator: str = field(
        metadata=help_line(
            "python:pkg.mod:fn | command:<argv> | http:<URL> | llm:<base URL .../v1> "
            "(taken as typed)"
        )
    )
    labels: tuple[str, ...] = field(
        metadata=help_line(
            "the declared verdict labels, e.g. [approve, deny, refer] (true, null, 1.10: text)"
        )
    )
    out_dir: Path = field(metadata=help_line("where receipts and the report go"))
    execution: str = field(
        default="adaptive",
        metadata=help_line("exhaustive (all 2^k hybrids) | adaptive | monotone (assume=monotone)"),
    )
    overwrite: bool = (
        False  # the command line's shared key (replace what reasonbench did not write)
    )
    budget: int | None = field(
        default=None,
        metadata=help_line("interior queries per case for adaptive/monotone (null: no budget)"),
    )
    order: tuple[str, ...] | None = field(
        default=None,
        metadata=help_line("monotone: the verdict order, low to high, e.g. [deny, refer, approve]"),
    )
    verify_fraction: float = field(
        default=0.1,
        metadata=help_line(
            "monotone: share of the inferred cells re-asked to check the assumption (0..1)"
        ),
    )
    verify_seed: int = field(
        default=0,
        metadata=help_line("monotone: which inferred cells are re-asked (with the case id)"),
    )
    repeats: int = field(
        default=1, metadata=help_line("runs per hybrid (>1 for a nondeterministic adjudicator)")
    )
    workers: int = field(default=4, metadata=help_line("cases certified concurrently"))
    timeout_s: float = field(default=30.0, metadata=help_line("per execution"))
    cache: Path | None = field(
        default=None, metadata=help_line("the execution cache (null: <out_dir>/cache.jsonl)")
    )
    adjudicator_version: str = field(
        default="",
        metadata=help_line("part of the cache key: change it when your adjudicator changes"),
    )
    sources: tuple[str, ...] | None = field(
        default=None, metadata=help_line("source order (null: the first case's)")
    )
    progress: bool = True  # the command line's shared key (rate and ETA)
    plugin_options: dict[str, Any] = field(
        default_factory=dict,
        metadata=help_line(
            "passed to the plug-in factory (free-form: the plug-in checks its keys)"
        ),
    )

    @property
    def cache_path(self) -> Path:
        return self.cache if self.cache is not None else self.out_dir / "cache.jsonl"

    def adjudicator_id(self, plugin_id: str) -> str:
        """The identity executions are cached under: the plug-in's own ``id`` (which names what
        decides its answers: a command's canonical argv, an LLM judge's model, prompt and
        decoding), and ``@adjudicator_version`` when set."""
        version = self.adjudicator_version
        return f"{plugin_id}@{version}" if version else plugin_id

    def validate(self) -> CertifyConfig:
        """Return ``self`` or raise :class:`ConfigError` naming the first bad key."""
        if self.execution not in EXECUTIONS:
            raise ConfigError(f"execution={self.execution!r}: must be one of {list(EXECUTIONS)}")
        labels = self.labels
        if len(labels) < 2 or not all(isinstance(x, str) and x for x in labels):
            raise ConfigError(f"labels={list(labels)}: declare at least two non-empty labels")
        if len(set(labels)) != len(labels):
            raise ConfigError(f"labels={list(labels)}: a label is repeated")
        if self.order is not None:
            if self.execution != "monotone":
                raise ConfigError("order is only used by execution=monotone")
            try:
                validate_order(self.order)
            except ValueError as exc:
                raise ConfigError(f"order: {exc}") from None
            if set(self.order) != set(labels):
                raise ConfigError(
                    f"order={list(self.order)} must list exactly the labels {list(labels)}"
                )
        if self.budget is not None:
            if self.execution == "exhaustive":
                raise ConfigError(
                    "budget applies to execution=adaptive or monotone, not exhaustive"
                )
            if self.budget < 0:
                raise ConfigError(f"budget={self.budget}: must be >= 0 (or null for no budget)")
        if not 0 <= self.verify_fraction <= 1:
            raise ConfigError(
                f"verify_fraction={self.verify_fraction}: must be between 0 and 1 (the share of "
                "inferred cells re-asked under execution=monotone)"
            )
        if not isinstance(self.verify_seed, int):
            raise ConfigError(f"verify_seed={self.verify_seed!r}: must be an integer")
        for key, value, low in (("repeats", self.repeats, 1), ("workers", self.workers, 1)):
            if not isinstance(value, int) or value < low:
                raise ConfigError(f"{key}={value!r}: must be an integer >= {low}")
        if not self.timeout_s > 0:
            raise ConfigError(f"timeout_s={self.timeout_s}: must be > 0")
        if self.sources is not None and not 1 <= len(self.sources) <= MAX_SOURCES:
            raise ConfigError(f"sources: declare 1..{MAX_SOURCES} sources")
        return self
