"""Baseline runs (issue 31): a baseline kind trained on any splits under any method name, so the
paper's "TF-IDF with more training data" is one more configured run, reported beside the other."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from reasonbench.baselines import BASELINES, load_rows
from reasonbench.baselines.majority import most_frequent
from reasonbench.cli.config import compose
from reasonbench.cli.main import main
from reasonbench.io import read_split
from reasonbench.predictions.io import read_predictions


def test_majority_learns_from_every_training_split(toy_benchmark: Path) -> None:
    rows = load_rows(toy_benchmark, with_cardinality=False)
    train = [r for s in ("train", "dev") for r in rows[s]]
    records = BASELINES.get("majority")(rows, "majority_more", ["train", "dev"], {})
    assert {r.method for r in records} == {"majority_more"}
    for stratum in {r["stratum"] for r in train}:
        counts = Counter(r["new_verdict"] for r in train if r["stratum"] == stratum)
        ids = {r["id"] for r in rows["test_locked"] if r["stratum"] == stratum}
        said = {r.pred_new_verdict for r in records if r.example_id in ids}
        assert said == {most_frequent(counts)}


def test_tfidf_on_more_data_is_its_own_method(toy_benchmark: Path) -> None:
    rows = load_rows(toy_benchmark, with_cardinality=False)
    settings = {"ngram": [2, 3], "max_features": 2000, "epochs": 3}
    plain = BASELINES.get("tfidf")(rows, "tfidf", ["train"], settings)
    more = BASELINES.get("tfidf")(rows, "tfidf_train_dev", ["train", "dev"], settings)
    assert {r.method for r in more} == {"tfidf_train_dev"} and len(more) == len(plain)
    again = BASELINES.get("tfidf")(rows, "tfidf_train_dev", ["train", "dev"], settings)
    assert again == more  # deterministic

    # dev rows are training rows of the variant: it fits them at least as well as the plain run
    def fitted(records: list, split: str) -> float:  # type: ignore[type-arg]
        gold = {
            r["id"]: r["new_verdict"]
            for r in read_split(toy_benchmark, split, ["id", "new_verdict"])
        }
        mine = [r for r in records if r.split == split]
        return sum(r.pred_new_verdict == gold[r.example_id] for r in mine) / len(mine)

    assert fitted(more, "dev") >= fitted(plain, "dev")


def test_the_configured_runs_include_both_tfidf_variants() -> None:
    cfg = compose("baselines")
    assert list(cfg.make) == ["majority", "tfidf", "tfidf_train_dev"]
    assert list(cfg.runs.tfidf.train_splits) == ["train"]
    assert list(cfg.runs.tfidf_train_dev.train_splits) == ["train", "dev"]  # calibration stays out
    roles = compose("analyze").methods
    assert (
        roles.tfidf_train_dev.method == "tfidf_train_dev"
        and roles.tfidf_train_dev.data == "train_dev"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["make=[tfidf2]"],
            "unknown baseline 'tfidf2' in make; the configured runs: majority, tfidf, tfidf_train_dev",
        ),
        (["runs.tfidf.kind=bayes"], "runs.tfidf.kind: unknown baseline kind 'bayes'"),
        (["runs.tfidf.train_splits=[train,nope]"], "runs.tfidf.train_splits: no split(s) ['nope']"),
        (
            ["runs.mine={kind:tfidf,train_splits:train}", "make=[mine]"],
            "runs.mine.train_splits must be a list, e.g. [a,b], got 'train', in the command line",
        ),
        (["runs.mine={kind:tfidff,train_splits:[train]}", "make=[mine]"], "did you mean 'tfidf'?"),
        (
            ["runs.tfidf.kindd=tfidf"],
            "unknown key 'runs.tfidf.kindd'; did you mean 'runs.tfidf.kind'?",
        ),
    ],
)
def test_a_bad_run_is_refused_in_one_line(
    toy_benchmark: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    said: str,
) -> None:
    code = main(["baselines", f"data_dir={toy_benchmark}", f"out_dir={tmp_path / 'p'}", *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and said in err[0], err
    assert not (tmp_path / "p").exists() or not any((tmp_path / "p").glob("*.parquet"))


def test_a_new_run_is_declared_on_the_command_line(toy_benchmark: Path, tmp_path: Path) -> None:
    """``runs`` takes new entries (docs/extending.md): a run of a registered kind, named and
    made from the command line, without editing a file."""
    out = tmp_path / "p"
    argv = ["runs.tfidf_all={kind:tfidf,train_splits:[train,dev,calibration]}", "make=[tfidf_all]"]
    assert main(["baselines", f"data_dir={toy_benchmark}", f"out_dir={out}", *argv]) == 0
    assert sorted(p.name for p in out.glob("*.parquet")) == ["tfidf_all.parquet"]
    records = read_predictions(out / "tfidf_all.parquet")
    assert records and {r.method for r in records} == {"tfidf_all"}


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["runs.tfidf.settings.alpha=1e-4", "runs.tfidf.settings.alphaa=1"],
            "reasonbench baselines: error: runs.tfidf.settings.alphaa: not a setting of baseline "
            "kind 'tfidf' (its settings: ngram, max_features, alpha, epochs, seed)",
        ),
        (
            ["runs.majority.settings.confidence=0.5", "make=[majority]"],
            "reasonbench baselines: error: runs.majority.settings: baseline kind 'majority' takes "
            "no settings, got {'confidence': 0.5}",
        ),
    ],
)
def test_a_setting_the_kind_does_not_take_is_refused(
    toy_benchmark: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    said: str,
) -> None:
    """Never silently ignored: a kind with a section is checked against it before anything runs;
    a kind without one refuses what it does not take (BaselineSettingsError), in one line."""
    code = main(["baselines", f"data_dir={toy_benchmark}", f"out_dir={tmp_path / 'p'}", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err == said + "\n", err
    assert not any((tmp_path / "p").glob("*.parquet"))


def test_a_run_sets_its_kinds_settings(toy_benchmark: Path, tmp_path: Path) -> None:
    """``runs.<method>.settings`` over the kind's section: two runs of one kind, two settings."""
    out = tmp_path / "p"
    argv = [
        "tfidf.max_features=300", "tfidf.epochs=2", "make=[tfidf,tfidf_big]",
        "runs.tfidf_big={kind:tfidf,train_splits:[train],settings:{max_features:3000}}",
    ]  # fmt: skip
    assert main(["baselines", f"data_dir={toy_benchmark}", f"out_dir={out}", *argv]) == 0
    rows = load_rows(toy_benchmark)
    small = BASELINES.get("tfidf")(rows, "tfidf", ["train"], {"max_features": 300, "epochs": 2})
    big = BASELINES.get("tfidf")(rows, "tfidf_big", ["train"], {"max_features": 3000, "epochs": 2})
    assert read_predictions(out / "tfidf.parquet") == small
    assert read_predictions(out / "tfidf_big.parquet") == big
    assert [r.confidence for r in small] != [r.confidence for r in big]
