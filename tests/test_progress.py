"""Progress: a rate and an ETA; plain lines (no carriage returns) when not on a terminal."""

from __future__ import annotations

import io

import pytest

from reasonbench.progress import Progress, format_seconds


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_lines_at_most_every_tenth_with_rate_and_eta(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REASONBENCH_PROGRESS", raising=False)
    stream, clock = io.StringIO(), Clock()
    with Progress(200, "audit labels", "chunk", stream=stream, clock=clock) as bar:
        for _ in range(200):
            clock.now += 0.5
            bar.update()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert len(lines) == 10  # 9 progress lines (10 %, ..., 90 %) and the summary
    assert lines[0] == "audit labels: 20/200 chunk (10%), 2.0 chunk/s, ETA 1 min 30 s"
    assert lines[-1] == "audit labels: 200 chunk in 1 min 40 s, 2.0 chunk/s"


def test_a_slow_step_reports_every_30_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REASONBENCH_PROGRESS", raising=False)
    stream, clock = io.StringIO(), Clock()
    bar = Progress(1000, "train", "step", stream=stream, clock=clock, initial=400)
    for _ in range(5):
        clock.now += 31
        bar.update()
    bar.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 6 and lines[0].startswith("train: 401/1,000 step (40%)")
    assert "ETA" in lines[0] and lines[-1].endswith("(resumed at 400, now 405), 0.0 step/s")


def test_off_and_forced_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    with Progress(3, "x", enabled=False, stream=stream) as bar:
        bar.update(3)
    assert stream.getvalue() == ""
    monkeypatch.setenv("REASONBENCH_PROGRESS", "off")
    with Progress(3, "x", stream=stream) as bar:
        bar.update(3)
    assert stream.getvalue() == ""


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.25, "0.2 s"), (42, "42 s"), (125, "2 min 05 s"), (7300, "2 h 01 min")]
)
def test_format_seconds(seconds: float, text: str) -> None:
    assert format_seconds(seconds) == text


def test_cached_units_print_no_line_and_no_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REASONBENCH_PROGRESS", raising=False)
    stream, clock = io.StringIO(), Clock()
    with Progress(320, "evaluate j", "answers", stream=stream, clock=clock) as bar:
        for _ in range(320):  # a rerun answered wholly from the cache: a burst of hits
            clock.now += 0.00002
            bar.update(1, cached=True)
    assert stream.getvalue().splitlines() == ["evaluate j: 320 answers, all from the cache"]
    stream, clock = io.StringIO(), Clock()
    with Progress(100, "evaluate j", "answers", stream=stream, clock=clock) as bar:
        bar.update(50, cached=True)  # a resumed run: half cached, then half asked
        for _ in range(50):
            clock.now += 1.0
            bar.update()
    lines = stream.getvalue().splitlines()
    # one line per tenth asked now (60 %, ..., 90 %), at the rate of the asked half alone
    assert lines[0] == "evaluate j: 60/100 answers (60%), 1.0 answers/s, ETA 40 s"
    assert len(lines) == 5
    assert lines[-1] == "evaluate j: 50 answers in 50 s and 50 from the cache, 1.0 answers/s"
