"""Speed of the served-model client (reasonbench.serve.Client): is the harness ever the bottleneck?

1. An endpoint that answers instantly (a canned /v1/completions reply from a raw asyncio server
   in its own process): requests/s of the client at concurrency 1, 8 and 32, beside the named
   baseline — a plain sequential keep-alive HTTP loop (``http.client``) in the same run. The
   client's overhead per request is its own process CPU time divided by the requests (request
   body, cache key, HTTP, JSON, one flushed cache line each); the goal is <= 2 ms at 32.
2. The real tiny model behind ``transformers serve`` (the CLI, in a subprocess), end to end on
   benchmark prompts: the client at concurrency 1 and 8 beside the same sequential loop.

    python scripts/bench_evaluate.py [--requests 3000] [--data-dir DIR] [--skip-server]

Figures are machine- and load-dependent: on a shared machine report them as indicative.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reasonbench.serve import Client, Endpoint, Sampling

REPLY = json.dumps(
    {
        "id": "bench",
        "object": "text_completion",
        "choices": [
            {"index": 0, "text": "old: deny\nnew: approve\nreceipt: G", "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 500, "completion_tokens": 12, "total_tokens": 512},
    }
).encode()
RESPONSE = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(REPLY)
    + REPLY
)
PROMPT = "case facts: " + "x" * 2000  # about the size of a benchmark prompt with its instruction


class Instant(asyncio.Protocol):
    """HTTP/1.1 keep-alive: every complete request (headers + Content-Length body) gets REPLY."""

    def connection_made(self, transport: Any) -> None:
        self.transport, self.buffer = transport, b""

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            length = 0
            for line in self.buffer[:end].split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            self.transport.write(RESPONSE)


def serve_instant(port: int) -> None:
    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Instant, "127.0.0.1", port)
        print("ready", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def sequential(port: int, path: str, bodies: list[bytes]) -> dict[str, float]:
    """The baseline: one keep-alive connection, one request after the other."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    cpu, wall = time.process_time(), time.perf_counter()
    for body in bodies:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        json.loads(connection.getresponse().read())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    connection.close()
    n = len(bodies)
    return {"req_s": n / wall, "wall_ms": wall / n * 1e3, "cpu_ms": cpu / n * 1e3}


def run_client(
    url: str, model: str, prompts: list[str], concurrency: int, tokens: int
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        client = Client(
            Endpoint(url, model, api="completions", concurrency=concurrency), Path(cache)
        )
        cpu, wall = time.process_time(), time.perf_counter()
        client.ask(prompts, Sampling(max_tokens=tokens))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(prompts)
    return {"req_s": n / wall, "wall_ms": wall / n * 1e3, "cpu_ms": cpu / n * 1e3}


def row(name: str, figures: dict[str, float]) -> str:
    rate = f"{figures['req_s']:,.0f}" if figures["req_s"] >= 100 else f"{figures['req_s']:.2f}"
    return f"| {name} | {rate} | {figures['wall_ms']:.3f} | {figures['cpu_ms']:.3f} |"


def bench_instant(n: int) -> list[str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve-instant", str(port)], stdout=subprocess.PIPE
    )
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == b"ready"
        bodies = [
            json.dumps({"model": "m", "prompt": f"{PROMPT}{i}", "max_tokens": 16}).encode()
            for i in range(n)
        ]
        baseline = sequential(port, "/v1/completions", bodies)
        lines = [
            f"Instant loopback endpoint, {n:,} requests each (client CPU = its process time / request)",
            "",
            "| caller | requests/s | wall ms/request | client CPU ms/request |",
            "|---|---|---|---|",
            row("baseline: sequential http.client loop", baseline),
        ]
        prompts = [f"{PROMPT}{i}" for i in range(n)]
        for concurrency in (1, 8, 32):
            figures = run_client(f"http://127.0.0.1:{port}/v1", "m", prompts, concurrency, 16)
            lines.append(row(f"reasonbench Client, concurrency {concurrency}", figures))
        return lines
    finally:
        server.kill()
        server.wait()


def bench_tiny_server(data_dir: Path | None, n: int) -> list[str]:
    from reasonbench.baselines import load_rows
    from reasonbench.models.tiny import build_tiny

    work = Path(tempfile.mkdtemp(prefix="bench-evaluate-"))
    if data_dir is None or not (data_dir / "train.parquet").is_file():
        data_dir = work / "rb"
        subprocess.run(
            [sys.executable, "-m", "reasonbench", "generate", "benchmark=small",
             f"out_dir={data_dir}", "progress=false", "workers=1"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    model = str(build_tiny(data_dir, work / "tiny"))
    rows = load_rows(data_dir, with_cardinality=False)["test_locked"]
    prompts = [r["prompt"] for r in rows][:n]
    port = free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cli = Path(sys.executable).with_name("transformers")
    server = subprocess.Popen(
        [str(cli), "serve", model, "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        started = time.perf_counter()
        wait_ready(f"http://127.0.0.1:{port}/health", 300, lambda: server.poll() is None)
        startup = time.perf_counter() - started
        tokens = 8
        bodies = [
            json.dumps(
                {"model": model, "prompt": p, "max_tokens": tokens, "temperature": 0}
            ).encode()
            for p in prompts
        ]
        sequential(port, "/v1/completions", bodies[:2])  # warm-up: first-request costs
        baseline = sequential(port, "/v1/completions", bodies)
        lines = [
            f"Tiny model behind `transformers serve` (CPU), {len(prompts)} benchmark prompts, "
            f"max_tokens {tokens}, greedy; server ready {startup:.0f} s after launch",
            "",
            "| caller | requests/s | wall ms/request | client CPU ms/request |",
            "|---|---|---|---|",
            row("baseline: sequential http.client loop", baseline),
        ]
        url = f"http://127.0.0.1:{port}/v1"
        for concurrency in (1, 8):
            figures = run_client(url, model, prompts, concurrency, tokens)
            lines.append(row(f"reasonbench Client, concurrency {concurrency}", figures))
        return lines
    finally:
        server.kill()
        server.wait()


def wait_ready(url: str, timeout_s: float, alive: Callable[[], bool]) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError("transformers serve exited before it was ready")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} not ready within {timeout_s:g} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests per instant run")
    parser.add_argument(
        "--server-prompts", type=int, default=24, help="prompts for the tiny server"
    )
    parser.add_argument("--data-dir", type=Path, default=Path("data/reasonbench"))
    parser.add_argument("--skip-server", action="store_true", help="only the instant endpoint")
    parser.add_argument("--serve-instant", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_instant:
        serve_instant(args.serve_instant)
        return
    print("\n".join(bench_instant(args.requests)), flush=True)
    if not args.skip_server:
        print()
        print("\n".join(bench_tiny_server(args.data_dir, args.server_prompts)))


if __name__ == "__main__":
    main()
