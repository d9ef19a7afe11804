"""docs/training.md, "A model that learns on CPU" → "### Results": every number checked against the
committed results.

The two tables are parsed out of the page (found by their header lines) and each cell is compared,
to the two decimals printed, with ``results/metrics.json``; the numbers in the prose are compared as
the phrases they appear in, rebuilt from ``metrics.json`` and the committed tables. Any number edited
by hand, in a table or in the prose, fails here. The counts taken from the prediction records (the
cube model's one repeated answer, TF-IDF's empty receipts) need the gold labels of ``test_locked``:
that test is skipped where ``data/reasonbench`` has not been built.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"
RESULTS = ROOT / "results"
TABLES = RESULTS / "tables"
GOLD = ROOT / "data" / "reasonbench" / "test_locked.parquet"
SPLIT = "test_locked"

MINUS = "\N{MINUS SIGN}"

# the methods table: its header line, and the page's name of each row → the method in metrics.json
METHODS_HEADER = "| method | exact receipt | endpoints | revised verdict | gold-change receipt | parse failures |"
ROW_METHOD = {
    "small_cpu-cube": "small_cpu-cube",
    "small_cpu-direct_receipt": "small_cpu-direct_receipt",
    "TF-IDF": "tfidf",
    "majority": "majority",
}
# each column → the metric it shows (metrics.json `metrics`; pooled over seeds on test_locked):
COLUMN_METRIC = {
    "exact receipt": "receipt_accuracy",  # exact receipt family right, of all examples
    "endpoints": "endpoint_accuracy",  # old and revised verdict both right
    "revised verdict": "revised_verdict_accuracy",  # revised verdict right, of all examples (not
    # gold_change_verdict_accuracy, the same on gold changes only: majority's 46.26 was that one)
    "gold-change receipt": "gold_change_receipt_accuracy",  # exact receipt right on gold changes
    "parse failures": "parse_failure_rate",  # outputs the frozen parser rejected
}
# the rows whose exact receipt carries its 95 % CI (the CPU models, as in primary_comparison)
ROWS_WITH_CI = {"small_cpu-cube", "small_cpu-direct_receipt"}

# the comparisons table: its header line, and the page's metric names → metrics.json's
COMPARISONS_HEADER = "| comparison (Holm family) | metric | a − b | 95 % CI |"
COMPARISON_METRIC = {
    "exact receipt": "receipt_accuracy",
    "endpoints": "endpoint_accuracy",
}

TWO_DECIMALS = re.compile(r"\d+\.\d\d")


# ---- formatting: the tables' one rounding rule (reasonbench.reports.render: fmt of pct) --------


def pp(rate: float) -> str:
    """A rate as percentage points, two decimals."""
    return f"{100.0 * rate:.2f}"


def signed(rate: float) -> str:
    """A difference as the page writes it: +1.08, −1.50 (a minus sign, not a hyphen), 0.00."""
    text = pp(rate)
    if text.lstrip("-") == "0.00":
        return "0.00"
    return MINUS + text[1:] if text.startswith("-") else "+" + text


def ci(low: float, high: float) -> str:
    return f"[{signed(low)}, {signed(high)}]"


def whole(part: float, total: float) -> str:
    """A share rounded to whole percent, as the prose quotes it ("93 %")."""
    return f"{100.0 * part / total:.0f} %"


def count(n: float) -> str:
    return f"{int(n):,}"


# ---- the committed results ---------------------------------------------------------------------


@cache
def metrics_json() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RESULTS / "metrics.json").read_text(encoding="utf-8"))
    return data


def pooled(method: str, metric: str, split: str = SPLIT) -> dict[str, float]:
    """``{"value", "numerator", "denominator"}`` of one metric, pooled over the method's seeds."""
    block = metrics_json()["methods"][method]["pooled"][split]
    cell: dict[str, float] = block["metrics"][metric]
    return cell


def n_examples(method: str, split: str = SPLIT) -> int:
    n: int = metrics_json()["methods"][method]["pooled"][split]["n"]
    return n


def method_ci(method: str, metric: str) -> dict[str, float]:
    outcome: dict[str, float] = metrics_json()["inference"]["splits"][SPLIT]["methods"][method][
        "outcomes"
    ][metric]
    return outcome


def comparison(name: str) -> dict[str, Any]:
    block: dict[str, Any] = metrics_json()["inference"]["comparisons"][name]
    return block


def subgroup(name: str, by: str, value: str, metric: str = "receipt_accuracy") -> dict[str, float]:
    cell: dict[str, float] = comparison(name)["subgroups"][by][value][metric]
    return cell


def table_rows(name: str) -> list[dict[str, str]]:
    with (TABLES / f"{name}.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def structural(by: str, value: str, method: str) -> float:
    """A cell of ``structural_subgroups`` (exact receipt by subgroup, % with two decimals)."""
    (row,) = [
        r for r in table_rows("structural_subgroups") if (r["subgroup"], r["value"]) == (by, value)
    ]
    return float(row[method])


def two_plane(method: str, route: str) -> dict[str, str]:
    (row,) = [
        r for r in table_rows("two_plane") if (r["method"], r["route (τ)"]) == (method, route)
    ]
    return row


# ---- the page ----------------------------------------------------------------------------------


@cache
def results_section() -> str:
    """The text of "### Results" under "## A model that learns on CPU", up to the next heading."""
    text = DOC.read_text(encoding="utf-8")
    part = text.split("\n## A model that learns on CPU\n", 1)[1].split("\n## ", 1)[0]
    section = part.split("\n### Results\n", 1)[1].split("\n### ", 1)[0]
    return section


def table(header: str) -> list[list[str]]:
    """The body rows of the Markdown table under ``header`` in the Results section, cell by cell."""
    lines = results_section().splitlines()
    assert lines.count(header) == 1, f"the table {header!r} is not in docs/training.md's Results"
    start = lines.index(header)
    assert re.fullmatch(r"\|(---\|)+", lines[start + 1]), "no separator line under the header"
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    n_columns = header.count("|") - 1
    assert rows and all(len(row) == n_columns for row in rows), rows
    return rows


def plain(cell: str) -> str:
    """A cell without its Markdown emphasis and code marks."""
    return cell.replace("**", "").replace("`", "")


@cache
def prose() -> str:
    """The section's prose, tables left out, every run of whitespace one space."""
    kept = [line for line in results_section().splitlines() if not line.startswith("|")]
    return " ".join(" ".join(kept).split())


# ---- the two tables ----------------------------------------------------------------------------


def test_methods_table_is_the_committed_results() -> None:
    rows = table(METHODS_HEADER)
    columns = [c.strip() for c in METHODS_HEADER.strip("|").split("|")][1:]
    assert list(COLUMN_METRIC) == columns  # every column mapped, in the page's order
    assert sorted(plain(row[0]) for row in rows) == sorted(ROW_METHOD)
    for row in rows:
        method = ROW_METHOD[plain(row[0])]
        assert metrics_json()["methods"][method]["info"]["seeds"] == [0]  # "one seed each"
        for column, cell in zip(columns, row[1:], strict=True):
            metric = COLUMN_METRIC[column]
            m = re.fullmatch(r"(\d+\.\d\d)(?: \[(\d+\.\d\d), (\d+\.\d\d)\])?", plain(cell))
            assert m, f"{plain(row[0])}, {column}: cannot read {cell!r}"
            where = f"{plain(row[0])}, {column} ({metric})"
            assert m[1] == pp(pooled(method, metric)["value"]), where
            wants_ci = column == "exact receipt" and method in ROWS_WITH_CI
            assert (m[2] is not None) == wants_ci, (
                f"{where}: a CI {'missing' if wants_ci else 'not expected'}"
            )
            if m[2] is not None:
                bounds = method_ci(method, metric)
                assert pp(bounds["estimate"]) == m[1], where
                assert (m[2], m[3]) == (pp(bounds["low"]), pp(bounds["high"])), f"{where}: CI"
    # the bold cell is the column's best
    bold = [(plain(row[0]), i) for row in rows for i, cell in enumerate(row) if "**" in cell]
    assert bold == [("small_cpu-cube", 1)]
    assert max(float(plain(row[1]).split()[0]) for row in rows) == float(
        pp(pooled("small_cpu-cube", "receipt_accuracy")["value"])
    )


def test_comparisons_table_is_the_committed_results() -> None:
    rows = table(COMPARISONS_HEADER)
    name = family = ""
    seen = []
    for row in rows:
        if row[0]:
            m = re.fullmatch(r"`(\w+)` \(`(\w+)`\)", row[0])
            assert m, row[0]
            name, family = m[1], m[2]
        assert name, "a continuation row with no comparison above it"
        block = comparison(name)
        assert block["family"] == family and block["split"] == SPLIT, row
        metric = COMPARISON_METRIC[row[1]]
        outcome = block["outcomes"][metric]
        where = f"{name}, {row[1]}"
        assert plain(row[2]) == signed(outcome["estimate"]), where
        m = re.fullmatch(r"(\[[^]]+\])(?:, Holm p = (\d\.\d{4}))?", row[3])
        assert m, f"{where}: cannot read {row[3]!r}"
        assert m[1] == ci(outcome["low"], outcome["high"]), f"{where}: CI"
        if m[2] is not None:
            assert m[2] == f"{outcome['p_holm']:.4f}", f"{where}: Holm p"
        seen.append((name, metric))
    assert seen == [
        ("cpu_cube_vs_tfidf", "receipt_accuracy"),
        ("cpu_cube_vs_tfidf", "endpoint_accuracy"),
        ("cpu_cube_vs_direct_receipt", "receipt_accuracy"),
    ]
    # "neither difference is distinguishable from zero": both cube − TF-IDF CIs hold 0
    for metric in ("receipt_accuracy", "endpoint_accuracy"):
        outcome = comparison("cpu_cube_vs_tfidf")["outcomes"][metric]
        assert outcome["low"] < 0 < outcome["high"], metric


# ---- the prose ---------------------------------------------------------------------------------


def results_phrases() -> Iterator[str]:
    """Each phrase of the prose that quotes a number from metrics.json or a committed table."""
    cube, direct, tfidf, majority = (
        "small_cpu-cube",
        "small_cpu-direct_receipt",
        "tfidf",
        "majority",
    )
    vs_tfidf, vs_direct = "cpu_cube_vs_tfidf", "cpu_cube_vs_direct_receipt"

    # the section's opening line: the locked test's size, and the CIs' level as the tables give it
    yield f"`{SPLIT}`, {count(n_examples(cube))} examples; 95 % hierarchical-bootstrap CIs"
    assert "95% hierarchical-bootstrap CI" in (TABLES / "comparisons.md").read_text(
        encoding="utf-8"
    )

    # cube − TF-IDF per stratum and per minimum receipt size (subgroup_differences)
    org = subgroup(vs_tfidf, "stratum", "organizational")
    yield f"organizational **{signed(org['estimate'])}** {ci(org['low'], org['high'])}"
    logical = subgroup(vs_tfidf, "stratum", "logical")
    yield f"logical {signed(logical['estimate'])} {ci(logical['low'], logical['high'])}"
    stable = subgroup(vs_tfidf, "min_receipt_size", "stable")
    yield f"stable cases {signed(stable['estimate'])} {ci(stable['low'], stable['high'])}"
    size1 = subgroup(vs_tfidf, "min_receipt_size", "1")
    yield f"size-1 changes {signed(size1['estimate'])} {ci(size1['low'], size1['high'])}"
    # exact receipt by subgroup (structural_subgroups), quoted in whole percent
    yield (
        f"calls {structural('min_receipt_size', 'stable', cube):.0f} % of stable cases stable, "
        f"TF-IDF {structural('min_receipt_size', 'stable', tfidf):.0f} %"
    )
    yield (
        f"finds {structural('min_receipt_size', '1', cube):.0f} % of them, "
        f"TF-IDF {structural('min_receipt_size', '1', tfidf):.0f} %"
    )
    org_cube = structural("stratum", "organizational", cube)
    assert org_cube == structural(
        "stratum", "organizational", majority
    )  # "scores what majority scores"
    yield f"majority scores ({org_cube:.2f} %, `structural_subgroups`)"
    yield f"TF-IDF is below majority there ({structural('stratum', 'organizational', tfidf):.2f} %)"

    # how often the cube model predicts no change (its verdicts and receipt come from one cube, so
    # a predicted change is drift, misattribution or a right change receipt)
    n = n_examples(cube)
    assert pooled(cube, "parse_failure_rate")["numerator"] == 0
    inertia = pooled(cube, "inertia_given_change")
    gold_changes = inertia["denominator"]
    right_changes = pooled(cube, "gold_change_receipt_accuracy")["numerator"]
    predicted_changes = (
        pooled(cube, "drift_rate")["numerator"]
        + pooled(cube, "misattribution_rate")["numerator"]
        + right_changes
    )
    assert two_plane(cube, "accept all")["predicted changes"] == count(predicted_changes)
    no_change = n - predicted_changes
    stable_right = pooled(cube, "receipt_accuracy")["numerator"] - right_changes
    gold_stable = pooled(cube, "drift_given_stable")["denominator"]
    yield f"on {count(no_change)} of the {count(n)} cases"
    yield (
        f"among them {count(inertia['numerator'])} of the {count(gold_changes)} gold changes "
        f"(`inertia_given_change` {pp(inertia['value'])})"
    )
    yield f"right {count(stable_right)} times in {count(no_change)} ({whole(stable_right, no_change)})"
    yield f"and {whole(gold_stable, n)} of the cases are stable"
    yield f"of {count(predicted_changes)} cases: it has not learnt"

    # the primary comparison on CPU (comparisons, primary_comparison)
    for metric, what in (
        ("receipt_accuracy", "exact receipt"),
        ("revised_verdict_accuracy", "revised verdict"),
    ):
        o = comparison(vs_direct)["outcomes"][metric]
        yield f"{signed(o['estimate'])} {ci(o['low'], o['high'])} " + (
            f"points of {what} (Holm p = {o['p_holm']:.4f})"
            if metric == "receipt_accuracy"
            else f"of {what} (Holm p = {o['p_holm']:.4f})"
        )
    (paper,) = [r for r in table_rows("comparisons") if r["comparison"] == "cube_vs_direct_receipt"]
    yield f"where the paper has {signed(float(paper['paper Δ']) / 100)} for its 1.7B models"
    # the direct model's collapse
    failures = pooled(direct, "parse_failure_rate")
    yield (
        f"all {count(n_examples(direct) - failures['numerator'])} answers that parse "
        f"({count(failures['numerator'])} do not, {pp(failures['value'])} %)"
    )
    direct_changes = pooled(direct, "gold_change_receipt_accuracy")
    assert direct_changes["numerator"] == 0
    yield f"gets 0 of the {count(direct_changes['denominator'])} gold-change receipts right"
    direct_receipt, majority_receipt = (
        pooled(direct, "receipt_accuracy"),
        pooled(majority, "receipt_accuracy"),
    )
    assert direct_receipt["value"] < majority_receipt["value"]
    yield f"its {pp(direct_receipt['value'])} is below majority's {pp(majority_receipt['value'])}"
    # the +5.62 in cases: the cube's right changes, less the stable cases the direct model has more
    direct_stable = direct_receipt["numerator"] - direct_changes["numerator"]
    gap = direct_stable - stable_right
    lead = right_changes - gap
    estimate = comparison(vs_direct)["outcomes"]["receipt_accuracy"]["estimate"]
    assert pp(lead / n) == pp(estimate)
    yield f"The cube model gets {count(right_changes)} gold changes right"
    yield (
        f"{count(stable_right)} stable cases against the direct model's {count(direct_stable)}: "
        f"{count(right_changes)} − {count(gap)} = {count(lead)} cases of {count(n)}, "
        f"the {pp(estimate)} points"
    )
    for value in ("logical", "organizational"):
        o = subgroup(vs_direct, "stratum", value)
        yield f"{value} {signed(o['estimate'])} {ci(o['low'], o['high'])}"
    assert subgroup(vs_direct, "stratum", "organizational")["low"] == 0  # "a CI that reaches zero"

    # the two-plane audit (two_plane)
    accept_all, low, high = (two_plane(cube, route) for route in ("accept all", "0.10", "0.75"))
    yield (
        f"predicts a change on {accept_all['predicted changes']} locked cases "
        f"(gold has {count(int(accept_all['missed gold changes']))} more it misses)"
    )
    yield f"reason debt of {float(accept_all['reason debt']):.1f} %"
    for route, row in (("0.10", low), ("0.75", high)):
        yield (
            f"{float(row['reason debt']):.1f} % with {row['certified']} certified "
            f"(τ = {route}, {count(int(row['executions']))} executions)"
        )
    # the other splits (metrics.json)
    linguistic = pooled(cube, "parse_failure_rate", "shift_linguistic")
    depth = pooled(cube, "parse_failure_rate", "shift_depth")
    yield (
        f"{count(linguistic['numerator'])} of the {count(n_examples(cube, 'shift_linguistic'))} "
        "`shift_linguistic` answers of the cube model do not parse"
    )
    yield f"against {count(depth['numerator'])} on `shift_depth`"


def test_prose_quotes_the_committed_results() -> None:
    text = prose()
    phrases = list(results_phrases())
    missing = [phrase for phrase in phrases if phrase not in text]
    assert not missing, "docs/training.md, Results: not found as written:\n" + "\n".join(missing)
    # and no number with two decimals goes unchecked: each one is inside a checked phrase
    rest = text
    for phrase in sorted(phrases, key=len, reverse=True):
        rest = rest.replace(phrase, " ")
    assert not TWO_DECIMALS.findall(rest), (
        f"unchecked numbers in the prose: {TWO_DECIMALS.findall(rest)}"
    )


# ---- counts from the prediction records --------------------------------------------------------


def _family(text: str | None) -> tuple[tuple[str, ...], ...] | None:
    """A receipt family as sorted sets of sources (None: not parsed); () is "no change"."""
    if text is None:
        return None
    return tuple(sorted(tuple(sorted(sources)) for sources in json.loads(text)))


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.skipif(
    not GOLD.exists(), reason="data/reasonbench not built: no gold labels to count against"
)
def test_prose_counts_from_the_records() -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    gold = {
        row["id"]: (row["stratum"], _family(row["receipt"]))
        for row in pq.read_table(GOLD, columns=["id", "stratum", "receipt"]).to_pylist()
    }
    predictions = RESULTS / "predictions"
    cube = _jsonl(predictions / "small_cpu-cube" / "seed0.jsonl")
    direct = _jsonl(predictions / "small_cpu-direct_receipt" / "seed0.jsonl")
    tfidf = [
        row
        for row in pq.read_table(
            predictions / "tfidf.parquet", columns=["example_id", "split", "pred_receipt"]
        ).to_pylist()
        if row["split"] == SPLIT
    ]
    for records in (cube, direct, tfidf):
        assert sorted(r["example_id"] for r in records) == sorted(gold)
    both = "{{G}, {N}}"
    g_n = (("G",), ("N",))
    text = prose()
    phrases = []

    # TF-IDF's empty receipt: how often, how often right
    empty = [gold[r["example_id"]][1] for r in tfidf if _family(r["pred_receipt"]) == ()]
    right = sum(receipt == () for receipt in empty)
    phrases.append(
        f"TF-IDF's empty receipt {count(right)} times in {count(len(empty))} ({whole(right, len(empty))})"
    )
    # and the cube model's, as its metrics give it
    cube_empty = [gold[r["example_id"]][1] for r in cube if _family(r["pred_receipt"]) == ()]
    phrases.append(
        f"right {count(sum(receipt == () for receipt in cube_empty))} times in {count(len(cube_empty))}"
    )

    # the cube model's changes: one answer, nearly always
    changes = Counter(
        _family(r["pred_receipt"]) for r in cube if _family(r["pred_receipt"]) not in ((), None)
    )
    assert changes.most_common(1)[0][0] == g_n
    phrases.append(f"names `{both}` in {changes[g_n]} of {sum(changes.values())} cases")
    on_g_n = [gold[r["example_id"]] for r in cube if _family(r["pred_receipt"]) == g_n]
    assert {stratum for stratum, _ in on_g_n} == {"logical"}
    outcome = Counter(
        "right" if receipt == g_n else "stable" if receipt == () else "other"
        for _, receipt in on_g_n
    )
    right_changes = [
        receipt
        for r in cube
        if (receipt := gold[r["example_id"]][1]) != () and _family(r["pred_receipt"]) == receipt
    ]
    phrases.append(
        f"{outcome['right']} of the {len(right_changes)} are one answer, `{both}`, which it gives on "
        f"{len(on_g_n)} logical cases ({outcome['right']} right, {outcome['other']} on another change, "
        f"{outcome['stable']} on stable cases)"
    )

    # the direct model writes no receipt at all
    parsed = [r for r in direct if r["parse_ok"]]
    assert {_family(r["pred_receipt"]) for r in parsed} == {()}
    phrases.append(f"writes `receipt: none` in all {count(len(parsed))} answers that parse")

    # per stratum, cube − direct receipt, in cases
    def size(stratum: str) -> int:
        return sum(s == stratum for s, _ in gold.values())

    def right_in(records: list[dict[str, Any]], stratum: str) -> int:
        return sum(
            gold[r["example_id"]][0] == stratum
            and _family(r.get("pred_receipt")) == gold[r["example_id"]][1]
            for r in records
            if r["parse_ok"]
        )

    cube_drift = Counter(
        gold[r["example_id"]][0]
        for r in cube
        if gold[r["example_id"]][1] == () and _family(r["pred_receipt"]) != ()
    )
    phrases.append(
        f"({outcome['right']} right `{both}` less {cube_drift['logical']} stable cases called changed, "
        f"of {count(size('logical'))})"
    )
    unparsed_stable = Counter(
        gold[r["example_id"]][0]
        for r in direct
        if not r["parse_ok"] and gold[r["example_id"]][1] == ()
    )
    assert set(unparsed_stable) == {"organizational"}
    phrases.append(
        f"({unparsed_stable['organizational']} stable cases whose direct answers do not parse, "
        f"of {count(size('organizational'))})"
    )

    # the two explanations add up to the per-stratum differences
    assert (
        right_in(cube, "logical") - right_in(direct, "logical")
        == outcome["right"] - cube_drift["logical"]
    )
    assert (
        right_in(cube, "organizational") - right_in(direct, "organizational")
        == unparsed_stable["organizational"]
    )

    missing = [phrase for phrase in phrases if phrase not in text]
    assert not missing, "docs/training.md, Results: not found as written:\n" + "\n".join(missing)
