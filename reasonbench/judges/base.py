"""The judge interface: prompts in, text out, optionally sampled — plus a registry of factories.

Anything that answers a benchmark prompt is a :class:`Judge`: a trained LoRA checkpoint, a local
causal LM used zero-shot, or a surface baseline. A judge declares the serialization it answers in
(``target``, one of :data:`reasonbench.targets.TARGETS`; its frozen parser reads the answers) and
whether its answers are random (``sampling``): a sampling judge's jitter is measured by reruns,
a greedy judge's must be zero and is verified. ``generate`` gets every prompt of one run at once
so a model can batch; run ``r`` of a sampling judge uses ``seed + r``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from reasonbench.registry import Registry
from reasonbench.targets import TARGETS

__all__ = [
    "Decoding",
    "Judge",
    "JudgeError",
    "check_target",
    "make_judge",
    "register_judge",
    "registered_judges",
]


class JudgeError(ValueError):
    """A judge cannot be built or answered badly (wrong number of outputs, unknown target)."""


@dataclass(frozen=True)
class Decoding:
    """How a model judge decodes: greedy (``sample=False``, deterministic) or sampled."""

    sample: bool = False
    temperature: float = 1.0
    top_p: float = 1.0
    max_new_tokens: int = 64

    def __post_init__(self) -> None:
        if self.sample and not (self.temperature > 0 and 0 < self.top_p <= 1):
            raise JudgeError(f"sampling needs temperature > 0 and 0 < top_p <= 1, got {self}")
        if self.max_new_tokens < 1:
            raise JudgeError(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")


@runtime_checkable
class Judge(Protocol):
    """Answers prompts with text."""

    @property
    def name(self) -> str: ...

    @property
    def target(self) -> str:
        """The serialization of the answers (``direct_receipt``, ``direct_verdict``, ...)."""
        ...

    @property
    def sampling(self) -> bool:
        """Whether answers are random (jitter is then measured by reruns)."""
        ...

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        """One answer per prompt, in order."""
        ...


def check_target(target: str) -> str:
    if target not in TARGETS:
        raise JudgeError(TARGETS.unknown(target))
    return target


JUDGES: Registry[Callable[..., Judge]] = Registry("judge factory")
"""Named judge factories (``conf/judge/*.yaml`` name one by its ``factory`` key)."""

Factory = TypeVar("Factory", bound=Callable[..., Judge])


def register_judge(name: str) -> Callable[[Factory], Factory]:
    """Decorator: register a judge factory under ``name`` (one name, one factory)."""
    return JUDGES.register(name)


def make_judge(factory: str, **kwargs: Any) -> Judge:
    """Build a judge with the registered factory ``factory`` — or your own, named as
    ``"package.module:function"`` (imported on first use); the error lists known names."""
    if factory not in JUDGES and ":" in factory:
        JUDGES.register_lazy(factory, factory)
    if factory not in JUDGES:
        raise JudgeError(JUDGES.unknown(factory))
    try:
        build = JUDGES.get(factory)
    except (ImportError, AttributeError, ValueError) as exc:
        JUDGES.unregister(factory)
        raise JudgeError(
            f"judge factory {factory!r} cannot be loaded ({exc}; is its module on PYTHONPATH?), "
            "key judge.factory"
        ) from None
    if not callable(build):
        raise JudgeError(f"judge factory {factory!r} is not callable")
    accepted = inspect.signature(build).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values()):
        unknown = sorted(set(kwargs) - set(accepted))
        if unknown:
            raise JudgeError(
                f"judge factory {factory!r} takes no argument(s) {unknown} "
                f"(it takes: {', '.join(n for n in accepted if n != 'name')})"
            )
    return build(**kwargs)


def registered_judges() -> tuple[str, ...]:
    return tuple(sorted(JUDGES.names()))
