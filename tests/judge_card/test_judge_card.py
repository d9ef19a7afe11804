"""The Judge Card end to end on a real small benchmark: baselines, the tiny model, a sampling
judge, the CLI — and the HTML card opened in headless Chromium."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from reasonbench.cli.main import main
from reasonbench.invariance.metrics import PisConfig
from reasonbench.judge_card import (
    SECTIONS,
    CardSettings,
    JudgeCard,
    evaluate_judge,
    to_markdown,
    write_card,
)
from reasonbench.judges import JudgeError, make_judge, register_judge

SETTINGS = CardSettings(replicates=300)
TFIDF = {"ngram": [2, 3], "max_features": 5000}


@pytest.fixture(scope="module")
def bench(small_bench: Path) -> Path:
    return small_bench


@pytest.fixture(scope="module")
def cards(
    bench: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[JudgeCard, Path]]:
    out = {}
    for method in ("majority", "tfidf"):
        judge = make_judge("baseline", name=method, method=method, data_dir=str(bench), tfidf=TFIDF)
        card, suite, answers = evaluate_judge(judge, bench, SETTINGS, {"factory": "baseline"})
        directory = tmp_path_factory.mktemp(f"card-{method}")
        write_card(card, directory, suite, answers)
        out[method] = (card, directory)
    return out


def test_baseline_cards(cards: dict[str, tuple[JudgeCard, Path]]) -> None:
    majority, tfidf = cards["majority"][0], cards["tfidf"][0]
    for card in (majority, tfidf):
        assert card.runs["greedy_jitter_verified"] is True
        assert card.invariance["excluded"].jitter.value == 0.0
        assert (
            card.data["items"] == 40
            and card.data["units"] == 2
            and card.data["benchmark"] == "small"
        )
        assert len(card.data["manifest_sha256"]) == 64
        assert set(card.accuracy["consistency"]["pooled"]) == {
            "distractor",
            "inverse",
            "permutation",
        }
    # a constant judge never flips: invariant to wording, but blind to the policy (R_dir
    # undefined -> fallback 0 -> PIS 0)
    ex = majority.invariance["excluded"]
    assert ex.flip["pooled"].value == 0.0 and ex.r_dir.value is None and majority.pis == 0.0
    assert tfidf.invariance["excluded"].flip["pooled"].value is not None
    for card in (majority, tfidf):  # greedy: jitter 0, so Δflip >= 0 and both PIS rules agree
        for report in card.invariance.values():
            assert report.pis == report.pis_by_rule["seed"] == report.pis_by_rule["clipped"]


def test_card_files_and_round_trip(cards: dict[str, tuple[JudgeCard, Path]]) -> None:
    card, directory = cards["tfidf"]
    loaded = JudgeCard.from_json(json.loads((directory / "judge_card.json").read_text()))
    assert loaded == card
    markdown = (directory / "judge_card.md").read_text()
    assert markdown == to_markdown(card)
    for section in SECTIONS:
        assert f"## {section}" in markdown
    assert card.data["manifest_sha256"] in markdown
    for name in ("delta_flip", "threshold_shift", "pis_components"):
        assert (directory / "figures" / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    for python_repr in ("False", "True", "None", "{}", "[]", "()"):  # values print as values
        assert f"| {python_repr} |" not in markdown and f" {python_repr}." not in markdown
    assert "| controls | yes |" in markdown or "| setting: controls | yes |" in markdown
    html = (directory / "judge_card.html").read_text()
    assert html.count('src="data:image/png;base64,') == 3
    assert "http://" not in html and "https://" not in html  # self-contained: nothing to fetch
    answers = (directory / "answers.jsonl").read_text().splitlines()
    assert len(answers) == card.runs["distinct_prompts"]


PROBE = """<script>
window.addEventListener('load', () => {
  const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const pis = document.getElementById('pis-value');
  const out = {
    headings: [...document.querySelectorAll('h1, h2')].map(h => [h.textContent, visible(h)]),
    images: [...document.images].map(i => i.complete && i.naturalWidth > 0 && visible(i)),
    pis: [pis.innerText, visible(pis)],
  };
  const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("chromium is missing in CI (.ci/run installs Debian's chromium package)")
    pytest.skip("headless Chromium not installed (apt-get install chromium); CI installs it")


def test_html_card_renders_in_headless_chromium(
    cards: dict[str, tuple[JudgeCard, Path]], tmp_path: Path
) -> None:
    browser = chromium()
    card, directory = cards["tfidf"]
    # the card has no script; a copy gets a probe that reports what the browser laid out
    probed = tmp_path / "probed.html"
    probed.write_text(
        (directory / "judge_card.html").read_text().replace("</body>", PROBE + "</body>")
    )
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--virtual-time-budget=5000",
    ]
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", probed.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    start = dom.index('<pre id="probe">') + len('<pre id="probe">')
    seen = json.loads(dom[start : dom.index("</pre>", start)])
    headings = dict(seen["headings"])
    assert headings == {f"Judge Card: {card.judge['name']}": True, **{s: True for s in SECTIONS}}
    assert seen["images"] == [True, True, True]  # every embedded plot decoded and laid out
    assert seen["pis"] == [f"PIS {card.pis:.2f}", True]
    shot = tmp_path / "card.png"
    subprocess.run(
        [browser, *flags, "--window-size=1000,1400", f"--screenshot={shot}", (directory / "judge_card.html").as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[:2] == (1400, 1000) and pixels.std() > 0.05  # not a blank page


@register_judge("test_coin")
class CoinJudge:
    """A sampling judge: each answer is a seeded coin flip between two verdicts."""

    target = "direct_receipt"
    sampling = True

    def __init__(self, name: str) -> None:
        self.name = name

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        def verdict(prompt: str) -> str:
            return random.Random(f"{seed}:{prompt}").choice(["approve", "deny"])

        return [f"old: deny\nnew: {verdict(p)}\nreceipt: none" for p in prompts]


def test_sampling_judge_is_rerun_and_its_jitter_subtracted(bench: Path) -> None:
    judge = make_judge("test_coin", name="coin")
    settings = CardSettings(max_items=8, reruns=3, controls=False, replicates=200, pis=PisConfig())
    card, _, answers = evaluate_judge(judge, bench, settings)
    assert card.runs["answers_per_prompt"] == 3 and card.runs["greedy_jitter_verified"] is None
    assert all(len(a) == 3 for a in answers.values())
    ex = card.invariance["excluded"]
    assert ex.jitter.value is not None and 0.2 < ex.jitter.value < 0.8  # a fair coin: ~0.5
    assert ex.delta_flip["pooled"].value == pytest.approx(ex.flip["pooled"].value - ex.jitter.value)
    with pytest.raises(JudgeError, match=">= 3 reruns"):
        evaluate_judge(judge, bench, CardSettings(max_items=2, reruns=2))


def test_cli_cards_the_tiny_model(bench: Path, tmp_path: Path, tiny_cache: Path) -> None:
    out = tmp_path / "tiny"
    argv = ["judge-card", "judge=tiny", f"data_dir={bench}", f"out_dir={out}", "max_items=3",
            "controls=false", "replicates=100", f"judge.args.cache_dir={tiny_cache}",
            "judge.args.decoding.max_new_tokens=6", f"cache_dir={tmp_path / 'answers'}"]  # fmt: skip
    assert main(argv) == 0
    card = JudgeCard.from_json(json.loads((out / "judge_card.json").read_text()))
    assert card.judge["name"] == "tiny" and card.judge["factory"] == "tiny_zero_shot"
    assert card.runs["greedy_jitter_verified"] is True and card.data["items"] == 3
    # a random-init model never answers in format (6 tokens cannot even hold the three lines)
    assert card.runs["parse_failure_rate"]["base"] == 1.0
    # every answer failed to parse: 0% on every metric (never undefined), and the headline says so
    items = card.accuracy["items"]["metrics"]
    assert items["parse_failure_rate"]["value"] == 1.0
    scored = {
        n: m["value"] for n, m in items.items() if n != "parse_failure_rate" and m["denominator"]
    }
    assert scored and set(scored.values()) == {0.0} and "receipt_accuracy" in scored
    headline = (out / "judge_card.md").read_text().split("\n## ")[0]
    assert "Warning: 100.0% of the 3 base answers failed to parse" in headline
    assert "scores 0% on every metric" in headline and "accuracy 0.0%" in headline
    assert card.invariance["excluded"].pis.value is None  # no parsed answer, no evidence
    imputed = card.invariance["imputed"]
    assert imputed.flip["pooled"].value == 1.0 and imputed.pis.value == 0.0
    assert (out / "judge_card.html").is_file()


def test_values_print_as_values() -> None:
    from reasonbench.judge_card.blocks import show

    assert [show(v) for v in (False, True, None, {}, [], 0.25, 3)] == [
        "no",
        "yes",
        "—",
        "—",
        "—",
        "0.25",
        "3",
    ]
    assert show({"T1": 2, "T2": None}) == "T1: 2; T2: —"
    assert show(["test_locked", "dev"]) == "test_locked, dev"


def test_cli_errors(bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "judge-card",
                "judge=majority",
                f"data_dir={bench}",
                "splits=[nope]",
                f"out_dir={tmp_path}",
            ]
        )
        == 2
    )
    assert "split 'nope' not found under" in capsys.readouterr().err
    assert main(["judge-card", "judge=lora", f"data_dir={bench}", f"out_dir={tmp_path}"]) == 2
    assert "set judge.args.run_dir" in capsys.readouterr().err
