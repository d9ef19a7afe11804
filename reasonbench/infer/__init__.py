"""Batched inference: greedy (or sampled) decoding, and ``predict`` for trained runs, cached and
written as prediction records."""

from reasonbench.infer.cache import GenerationCache, cache_key
from reasonbench.infer.confidence import SOURCES, verdict_span
from reasonbench.infer.decode import Generation, Sampler, decode, greedy_decode, left_pad, sampler
from reasonbench.infer.records import make_record
from reasonbench.infer.run import PredictError, predict

__all__ = [
    "SOURCES",
    "Generation",
    "GenerationCache",
    "PredictError",
    "Sampler",
    "cache_key",
    "decode",
    "greedy_decode",
    "left_pad",
    "make_record",
    "predict",
    "sampler",
    "verdict_span",
]
