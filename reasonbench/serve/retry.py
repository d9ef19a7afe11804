"""When to retry a failed request, and how long to wait first.

Retryable: HTTP 408, 409, 425, 429 and every 5xx, timeouts, connection errors and a response
that is not the JSON the API promises (a truncated body). Anything else (400, 401, 403, 404,
422, ...) is a request or configuration the server will never accept: the run stops at once.
The wait before retry ``attempt`` (0-based) is exponential with "equal jitter" — uniform in
``[d/2, d]`` for ``d = min(max_backoff_s, backoff_s * 2**min(attempt, 60))`` (the exponent
stops at 60, so no attempt count overflows a float) — so concurrent requests that failed
together do not return together; a ``Retry-After`` header (seconds or an HTTP date) replaces
it, since the server knows best.
"""

from __future__ import annotations

import math
import random
import time
from email.utils import parsedate_to_datetime

from reasonbench.serve.config import RetryPolicy

__all__ = ["RETRYABLE_STATUS", "backoff", "failure_kind", "retry_after"]

RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


def failure_kind(status: int) -> str | None:
    """The accounting name of a retryable HTTP status (``None``: not retryable)."""
    if status == 429:
        return "http_429"
    if status >= 500:
        return "http_5xx"
    if status in RETRYABLE_STATUS:
        return f"http_{status}"
    return None


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date (RFC 9110);
    ``None`` when absent or unreadable. A date in the past means "now" (0)."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # an HTTP date is GMT by definition
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)


def backoff(attempt: int, policy: RetryPolicy, rng: random.Random | None = None) -> float:
    """The jittered exponential wait before retry ``attempt`` (0-based)."""
    cap = min(policy.max_backoff_s, policy.backoff_s * 2.0 ** min(attempt, 60))
    draw = (rng or random).random()
    return cap / 2 + draw * cap / 2
