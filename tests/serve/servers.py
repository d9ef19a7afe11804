"""Real loopback servers for the client tests: the tiny model behind ``transformers serve`` (forked
by ``zygote.py``), and a fault-injecting HTTP proxy in front of it.

Both bind 127.0.0.1 only, on free ports, and stop by themselves: the fixtures close them, the
zygote's children die with it, and the proxy runs in a daemon thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable, Iterable
from email.utils import formatdate
from pathlib import Path
from typing import IO, Any

from aiohttp import ClientError, ClientSession, ClientTimeout, web

ZYGOTE = Path(__file__).with_name("zygote.py")
START_TIMEOUT_S = 240.0  # the first start imports torch + transformers under a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_http(url: str, timeout_s: float, alive: Any = None) -> None:
    """Poll ``url`` until it answers 200; bounded by ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if alive is not None and not alive():
            raise RuntimeError(f"the server behind {url} exited before it was ready")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    raise TimeoutError(f"{url} not ready within {timeout_s:g} s")


class Launcher:
    """The ``zygote.py`` process: imports the serving stack once, forks one server per ``start``.

    Its environment pins one decoding thread (``OMP_NUM_THREADS=1``): unpinned, the tiny model
    answers several times slower on a loaded 2-core machine, and the timing-derived limits of
    the fault tests get noisy."""

    def __init__(self, model_dir: Path, log: Path) -> None:
        self.log = log
        env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_VERBOSITY": "error",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        self.proc = subprocess.Popen(
            [sys.executable, str(ZYGOTE), str(model_dir), str(log)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("a"),
            env=env,
        )
        self._buffer = b""
        self.expect("ready", START_TIMEOUT_S)

    def send(self, line: str) -> None:
        stdin: IO[bytes] | None = self.proc.stdin
        assert stdin is not None
        stdin.write(line.encode() + b"\n")
        stdin.flush()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def expect(self, word: str, timeout_s: float) -> str:
        """The zygote's next stdout line, which must start with ``word``."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise RuntimeError(f"server launcher gave no {word!r}; see {self.log}")
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise RuntimeError(f"server launcher exited; see {self.log}")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        text = line.decode()
        if not text.startswith(word):
            raise RuntimeError(f"server launcher said {text!r}, expected {word!r}")
        return text

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()  # the launcher kills its children and exits
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class TinyServer:
    """``transformers serve`` of ``model_dir`` on a fixed loopback port, killable and restartable.

    It starts its own :class:`Launcher`, or shares ``launcher`` (another model served by the same
    pre-imported process costs a fork and a model load, about a second)."""

    def __init__(self, model_dir: Path, log: Path, launcher: Launcher | None = None) -> None:
        self.model, self.port = str(model_dir), free_port()
        self.owns_launcher = launcher is None
        self.launcher = launcher if launcher is not None else Launcher(model_dir, log)
        self.pid: int | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        self.launcher.send(f"start {self.port} {self.model}")
        self.pid = int(self.launcher.expect("pid", 30).split()[1])
        wait_http(f"http://127.0.0.1:{self.port}/health", 120, self.launcher.alive)

    def kill(self) -> None:
        """SIGKILL the running server (as a crash would), waiting until it is gone."""
        if self.pid is not None:
            self.launcher.send(f"kill {self.pid}")
            self.launcher.expect("killed", 30)
            self.pid = None

    def close(self) -> None:
        if self.owns_launcher:
            self.launcher.close()
        else:
            self.kill()


def echo(data: bytes, token: str) -> bytes:
    """An OpenAI response with ``token`` appended to every choice's content."""
    answer = json.loads(data)
    for choice in answer["choices"]:
        if isinstance(choice.get("message"), dict):
            choice["message"]["content"] = f"{choice['message']['content'] or ''} {token}"
        else:
            choice["text"] = f"{choice.get('text') or ''} {token}"
    return json.dumps(answer).encode()


class LoopbackApp:
    """An aiohttp application on a free loopback port, served from a daemon thread's event loop;
    subclasses answer every request in :meth:`handle` and may close more in :meth:`stopping`."""

    def __init__(self) -> None:
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise TimeoutError(f"{type(self).__name__} did not start")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        await self.started()

    async def started(self) -> None:
        """Called in the server's loop once it listens."""

    async def stopping(self) -> None:
        """Called in the server's loop before it stops."""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        raise NotImplementedError

    def close(self) -> None:
        async def stop() -> None:
            await self.stopping()
            await self._runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


class CannedServer(LoopbackApp):
    """An OpenAI-compatible server without a model, for the fast client tests (and the mutation
    runs of ``reasonbench/serve`` and ``certify``'s llm judge, which cannot afford a model per
    mutant): ``/v1/chat/completions`` and ``/v1/completions`` answer ``reply(prompt, seed)``
    (default: the prompt, then ``#<seed>``), with usage ``prompt_tokens`` = the prompt's length
    and ``completion_tokens`` = 2. Every request's path, JSON body and headers are kept in
    ``requests``. With ``hold`` set, each request waits (at most ``hold_timeout_s``) until
    ``hold`` requests have arrived since the last batch went out (a barrier);
    ``most_in_flight`` is the most requests there ever were in flight at once."""

    def __init__(self, reply: Callable[[str, int], str] | None = None) -> None:
        self.reply = reply or (lambda prompt, seed: f"{prompt} #{seed}")
        self.requests: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        self.hold: int | None = None
        self.hold_timeout_s = 2.0
        self.arrived = self.in_flight = self.most_in_flight = 0
        super().__init__()

    async def started(self) -> None:
        self._changed = asyncio.Condition()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        path = request.match_info["path"]
        self.requests.append((path, body, dict(request.headers)))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        async with self._changed:
            self.arrived += 1
            self._changed.notify_all()
            if self.hold is not None:
                batch = -(-self.arrived // self.hold) * self.hold  # this request's batch is full
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: self.arrived >= batch), self.hold_timeout_s
                    )
        self.in_flight -= 1
        if path == "v1/chat/completions":
            prompt = str(body["messages"][-1]["content"])
            choice: dict[str, Any] = {"message": {"role": "assistant"}}
            choice["message"]["content"] = self.reply(prompt, int(body["seed"]))
        elif path == "v1/completions":
            prompt = str(body["prompt"])
            choice = {"text": self.reply(prompt, int(body["seed"]))}
        else:
            return web.Response(status=404, text=f"no route {path}")
        answer = {
            "choices": [{**choice, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": len(prompt), "completion_tokens": 2},
        }
        return web.json_response(answer)


class FaultProxy(LoopbackApp):
    """A loopback HTTP proxy that answers the next requests with the queued faults:

    ``429`` (``Retry-After: 1``), ``429-date`` (``Retry-After`` as an HTTP date 1 s ahead),
    ``429-long`` (``Retry-After: 3600``), ``429-now`` (``Retry-After: 0``),
    ``500``, ``503``, ``truncate`` (the upstream JSON cut in half, framed as complete),
    ``hangup`` (half the body, then the connection closed), ``slow`` (upstream answer after
    ``slow_s``), ``401`` (with ``body401``), ``400`` and ``422`` (with ``body400``). With no fault
    queued it forwards the request.
    With ``echo_key`` set, every forwarded answer's content ends with the request's bearer token
    (a server that quotes the key back in a 200).
    """

    def __init__(self, upstream: str, slow_s: float = 3.0) -> None:
        self.upstream, self.slow_s = upstream.rstrip("/"), slow_s
        self.faults: deque[str] = deque()
        self.seen: list[tuple[float, str, dict[str, str]]] = []  # (time, fault, headers)
        self.body401 = "unauthorized"
        self.body400: str | bytes = "bad request"
        self.echo_key = False
        super().__init__()

    def queue(self, faults: Iterable[str]) -> None:
        self.faults.extend(faults)

    async def started(self) -> None:
        self._session = ClientSession(timeout=ClientTimeout(total=60))

    async def stopping(self) -> None:
        await self._session.close()

    async def _forward(self, request: web.Request, body: bytes) -> tuple[int, bytes]:
        url = self.upstream + "/" + request.match_info["path"].removeprefix("v1/")
        headers = {"Content-Type": request.headers.get("Content-Type", "application/json")}
        async with self._session.request(request.method, url, data=body, headers=headers) as r:
            return r.status, await r.read()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        fault = self.faults.popleft() if self.faults else "pass"
        self.seen.append((time.monotonic(), fault, dict(request.headers)))
        if fault == "429":
            return web.Response(status=429, headers={"Retry-After": "1"}, text="rate limited")
        if fault == "429-long":
            return web.Response(status=429, headers={"Retry-After": "3600"}, text="come back later")
        if fault == "429-now":
            return web.Response(status=429, headers={"Retry-After": "0"}, text="rate limited")
        if fault == "429-date":
            when = formatdate(time.time() + 1, usegmt=True)
            return web.Response(status=429, headers={"Retry-After": when}, text="rate limited")
        if fault in ("500", "503"):
            return web.Response(status=int(fault), text="upstream error")
        if fault == "401":
            return web.Response(status=401, text=self.body401)
        if fault in ("400", "422"):
            body400 = self.body400
            return web.Response(
                status=int(fault), body=body400.encode() if isinstance(body400, str) else body400
            )
        if fault == "slow":
            await asyncio.sleep(self.slow_s)
        try:
            status, data = await self._forward(request, body)
        except (ClientError, asyncio.TimeoutError) as exc:  # the upstream server was killed
            return web.Response(status=502, text=f"bad gateway: {type(exc).__name__}")
        if self.echo_key and status == 200:
            data = echo(data, request.headers.get("Authorization", "").removeprefix("Bearer "))
        if fault == "truncate":
            return web.Response(status=status, body=data[: len(data) // 2],
                                content_type="application/json")  # fmt: skip
        if fault == "hangup":
            response = web.StreamResponse(status=status, headers={"Content-Length": str(len(data))})
            await response.prepare(request)
            await response.write(data[: len(data) // 2])
            assert request.transport is not None
            request.transport.close()
            return response
        return web.Response(status=status, body=data, content_type="application/json")
