"""Session fixtures of every served-model test (tests/serve, tests/certify): a copy of the tiny
model made servable over both APIs and one real ``transformers serve`` of it on loopback, started
once per session and killed at the end (and, forked by the same launcher, the tiny model as built,
whose chat API fails). Registered for the whole suite in tests/conftest.py."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from reasonbench.models.tiny import build_tiny
from tests.serve.servers import FaultProxy, TinyServer

# The tiny tokenizer has no chat template (its judge prompts are plain text); the served copy
# gets a minimal one so /v1/chat/completions works too.
CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)


@pytest.fixture(scope="session")
def served_model(
    small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The tiny model with a chat template, and ``do_sample`` on in its generation config so a
    request's ``temperature > 0`` samples (``temperature: 0`` turns it off), as vLLM does."""
    out = tmp_path_factory.getbasetemp() / "served-tiny"
    if not out.is_dir():
        shutil.copytree(build_tiny(small_bench, tiny_cache), out)
        (out / "chat_template.jinja").write_text(CHAT_TEMPLATE)
        config = json.loads((out / "generation_config.json").read_text())
        (out / "generation_config.json").write_text(json.dumps({**config, "do_sample": True}))
    return out


@pytest.fixture(scope="session")
def tiny_server(
    served_model: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TinyServer]:
    server = TinyServer(served_model, tmp_path_factory.getbasetemp() / "tiny-server.log")
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def templateless_server(
    tiny_server: TinyServer,
    small_bench: Path,
    tiny_cache: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[TinyServer]:
    """The tiny model as built, without a chat template, served by the same launcher: its
    ``/v1/chat/completions`` answers HTTP 500, as ``transformers serve`` does for such a model."""
    server = TinyServer(
        build_tiny(small_bench, tiny_cache),
        tmp_path_factory.getbasetemp() / "tiny-server.log",
        launcher=tiny_server.launcher,
    )
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def server(tiny_server: TinyServer) -> Iterator[TinyServer]:
    """The session's server, running (a test that killed it restarts it afterwards)."""
    if tiny_server.pid is None:
        tiny_server.start()
    yield tiny_server
    if tiny_server.pid is None:
        tiny_server.start()


@pytest.fixture
def proxy(server: TinyServer) -> Iterator[FaultProxy]:
    faulty = FaultProxy(server.base_url)
    try:
        yield faulty
    finally:
        faulty.close()
