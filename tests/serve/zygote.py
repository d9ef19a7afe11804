"""A ``transformers serve`` launcher for the tests: imports the server once, forks each server.

``transformers serve`` spends ~20 s importing torch, transformers and its serving stack before
it binds its port; the kill-and-restart test would pay that twice. This process pays it once
(the imports only — no model, no thread, so forking is safe), then on each ``start PORT [MODEL]``
line on stdin forks a child that runs the CLI's own ``Serve`` (the class ``transformers serve``
runs) on 127.0.0.1:PORT, serving MODEL (default: the model on its command line), and answers
``pid N``; each child decodes on one thread (the launcher's environment pins
``OMP_NUM_THREADS=1``; the tiny model answers several times faster so on a 2-core machine); ``kill N`` SIGKILLs and reaps that child and
answers ``killed N``. End of stdin kills every child and exits. A child dies with this process
(``PR_SET_PDEATHSIG``), so no server outlives the test session.

    python tests/serve/zygote.py <model dir> <log file>
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def preimport() -> None:
    # everything Serve() imports lazily, so a forked child only loads the (tiny) weights
    import fastapi  # noqa: F401
    import transformers.cli.serving.chat_completion  # noqa: F401
    import transformers.cli.serving.completion  # noqa: F401
    import transformers.cli.serving.model_manager  # noqa: F401
    import transformers.cli.serving.response  # noqa: F401
    import transformers.cli.serving.server  # noqa: F401
    import transformers.cli.serving.systemone  # noqa: F401
    import transformers.cli.serving.transcription  # noqa: F401
    import transformers.integrations.hub_kernels  # noqa: F401
    import transformers.modeling_utils  # noqa: F401
    import transformers.models.auto.processing_auto  # noqa: F401
    import transformers.models.qwen3.modeling_qwen3  # noqa: F401
    import uvicorn  # noqa: F401
    from transformers import AutoProcessor, ContinuousBatchingConfig  # noqa: F401
    from transformers.cli.serve import Serve  # noqa: F401


def serve(model: str, port: int, log: str) -> None:
    """The child: die with the parent, log to the file, run the server until killed."""
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    import torch

    # OMP_NUM_THREADS is read when torch starts; set it again in case the launcher was started
    # without it (a forked child keeps the parent's setting, not a fresh default)
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    from transformers.cli.serve import Serve

    try:
        Serve(force_model=model, host="127.0.0.1", port=port, log_level="warning")
    finally:
        os._exit(0)


def main() -> None:
    model, log = sys.argv[1], sys.argv[2]
    preimport()
    print("ready", flush=True)
    children: set[int] = set()
    for line in sys.stdin:
        command, *args = line.split()
        if command == "start":
            pid = os.fork()
            if pid == 0:
                serve(args[1] if len(args) > 1 else model, int(args[0]), log)
            children.add(pid)
            print(f"pid {pid}", flush=True)
        elif command == "kill":
            pid = int(args[0])
            if pid in children:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                children.discard(pid)
            print(f"killed {pid}", flush=True)
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
