"""The one case the llm-judge tests send: an insurance claim against its limit, its declared
labels and sources, the template that renders it, and the prompt that template must give."""

from __future__ import annotations

LABELS = ("approve", "deny", "refer")
SOURCES = ("claim", "limit")
TEMPLATE = "Claim: {claim}\nLimit: {limit}\nVerdict:"
HYBRID = {"claim": 40, "limit": "fifty"}
PROMPT = "Claim: 40\nLimit: fifty\nVerdict:"
