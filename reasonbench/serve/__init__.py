"""A client for OpenAI-compatible servers (vLLM, SGLang, TGI, Ollama, llama.cpp, transformers
serve, hosted APIs): bounded async concurrency, retries, a resumable answer cache, token and
cost accounting, reasoning split off. Usable on its own — no judge needed::

    from reasonbench.serve import Client, Endpoint, Sampling
    client = Client(Endpoint("http://127.0.0.1:8000/v1", "Qwen/Qwen3-8B"), cache_dir=Path("c"))
    replies = client.ask(["prompt 1", "prompt 2"], Sampling(max_tokens=64), seed=0)
    texts = [r.text for r in replies]      # reasoning removed; r.raw is the content as sent
    print(client.usage.summary())

The judge ``openai`` (:mod:`reasonbench.judges.served`) wraps it for the benchmark.
"""

from reasonbench.serve.client import Client
from reasonbench.serve.config import (
    APIS,
    Endpoint,
    Prices,
    RetryPolicy,
    Sampling,
    ServeError,
)
from reasonbench.serve.usage import Usage, write_usage
from reasonbench.serve.wire import Reply, split_reasoning

__all__ = [
    "APIS",
    "Client",
    "Endpoint",
    "Prices",
    "Reply",
    "RetryPolicy",
    "Sampling",
    "ServeError",
    "Usage",
    "split_reasoning",
    "write_usage",
]
