"""Session fixtures shared across the suite: one torch thread, a small benchmark on toy strata,
the real ``benchmark=small`` (generated once per session, with its cardinality splits) and the
cache directory of the tiny model."""

from __future__ import annotations

from pathlib import Path

import pytest

from reasonbench.assembly import generate, spec_from_config
from reasonbench.models.kernels import portable_environment
from reasonbench.strata.toy import ToyStratum
from tests.assembly.conftest import small_config

# before any test runs a torch kernel (nothing above imports torch): the kernels that train,
# predict and the judges apply themselves (cpu_kernels=portable), for this process's other torch
# work too and for every process it starts
portable_environment()

# the tiny model behind one real transformers-serve server, for every test that needs it
pytest_plugins = ["tests.served"]


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    """One torch thread for whatever the tests run in this process outside ``train``/``predict``
    (which set their own ``threads``): the CI machine has 2 cores shared with other jobs, and
    OpenMP threads spin-waiting against them slow the tiny model by an order of magnitude."""
    import torch

    torch.set_num_threads(1)


def toy_strata() -> dict[str, ToyStratum]:
    return {
        "organizational": ToyStratum("organizational", 20),
        "logical": ToyStratum("logical", 40, with_depth=True),
    }


@pytest.fixture(scope="session")
def small_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``reasonbench generate benchmark=small`` through the CLI, as a user runs it (~6 s, once)."""
    from reasonbench.cli.main import main

    out = tmp_path_factory.getbasetemp() / "rb-small"
    if not (out / "MANIFEST.json").is_file():
        argv = ["generate", "benchmark=small", f"out_dir={out}", "progress=false", "workers=1"]
        assert main(argv) == 0
    return out


@pytest.fixture(scope="session")
def tiny_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the session's tiny model is built (once, by the first test that needs it)."""
    return tmp_path_factory.getbasetemp() / "tiny-cache"


@pytest.fixture(scope="session")
def tiny_cube_run(
    small_bench: Path, tiny_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A finished tiny-model run on the small build (2 optimizer steps of LoRA): something for
    ``predict`` to decode, where only the decoding matters (Ctrl-C, the machine matrix)."""
    from reasonbench.train import train
    from tests.train.helpers import composed, tiny_overrides

    run_dir = tmp_path_factory.mktemp("tiny-run") / "tiny-cube"
    steps = ["optim.max_steps=2", "optim.batch_size=8", f"out_dir={run_dir}"]
    assert train(composed("train", tiny_overrides(small_bench, tiny_cache, *steps)))["finished"]
    return run_dir


@pytest.fixture(scope="session")
def toy_benchmark(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("toy-bench") / "rb"
    generate(spec_from_config(small_config()), out, workers=1, progress=False, strata=toy_strata())
    return out


def baseline_predictions(data_dir: Path, out: Path, max_features: int = 5000) -> Path:
    """``majority.parquet`` and ``tfidf.parquet`` of the benchmark in ``data_dir`` under ``out``."""
    from reasonbench.baselines import load_rows, majority_predictions, tfidf_predictions
    from reasonbench.predictions import write_parquet

    rows = load_rows(data_dir)
    write_parquet(out / "majority.parquet", majority_predictions(rows))
    tfidf = tfidf_predictions(rows, ngram=(2, 3), max_features=max_features)
    write_parquet(out / "tfidf.parquet", tfidf)
    return out


@pytest.fixture(scope="session")
def toy_predictions(toy_benchmark: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return baseline_predictions(toy_benchmark, tmp_path_factory.mktemp("preds"))
