"""Batched greedy inference of trained runs, cached, written as prediction records."""

from reasonbench.infer.cache import GenerationCache, cache_key
from reasonbench.infer.confidence import SOURCES, verdict_span
from reasonbench.infer.decode import Generation, greedy_decode, left_pad
from reasonbench.infer.records import make_record
from reasonbench.infer.run import PredictError, predict

__all__ = [
    "SOURCES",
    "Generation",
    "GenerationCache",
    "PredictError",
    "cache_key",
    "greedy_decode",
    "left_pad",
    "make_record",
    "predict",
    "verdict_span",
]
