"""Benchmark assembly: spec, quotas, unit pools, records, controls, writing and manifests."""

from reasonbench.assembly.generation import generate
from reasonbench.assembly.pipeline import Built, build
from reasonbench.assembly.spec import SPLITS, BenchmarkSpec, SpecError, spec_from_config

__all__ = ["SPLITS", "BenchmarkSpec", "Built", "SpecError", "build", "generate", "spec_from_config"]
