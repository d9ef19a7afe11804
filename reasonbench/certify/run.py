"""``run_certify``: read the cases, certify each through the plug-in, write receipts and reports.

Order of work: validate the config, read the whole case file, check that every output may be
written, build the plug-in and open the cache — so every user error surfaces before anything
executes. Cases are certified by ``workers`` threads (a case's queries are sequential, since each
depends on the answers before it); results keep the input order. Outputs are written at the end,
atomically; a killed run has lost nothing but the hybrids in flight, which the cache re-executes.

The case file enters the outputs as its content (sha256) and its file name (of the resolved
path), never as the path typed: ``cases=x.jsonl``, ``./x.jsonl``, an absolute path or a symlink
to the file give the same bytes. Text is written by :func:`~reasonbench.core.canonical.json_utf8`,
so a lone surrogate from a case file (valid JSON) is written as its ``\\uXXXX`` escape.
"""

from __future__ import annotations

import hashlib
import json
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from typing import Any

from reasonbench.certify.cache import ExecutionCache
from reasonbench.certify.cases import CaseSet, read_cases
from reasonbench.certify.casework import CaseResult, certify_case
from reasonbench.certify.config import CertifyConfig
from reasonbench.certify.execute import Executor
from reasonbench.certify.plugins import AdjudicatorUnavailable, PluginOptions, make_adjudicator
from reasonbench.certify.render import to_html, to_markdown
from reasonbench.certify.summary import CertifySummary, RunStats, summarize
from reasonbench.core.canonical import json_utf8
from reasonbench.io import OutputDir
from reasonbench.progress import Progress

__all__ = ["OUTPUTS", "run_certify"]

OUTPUTS = ("receipts.jsonl", "summary.json", "summary.md", "summary.html")


def _config_echo(config: CertifyConfig, case_set: CaseSet, identity: str) -> dict[str, Any]:
    """What decides the outputs (not workers, progress or paths of outputs: they do not)."""
    return {
        "adjudicator": config.adjudicator,
        "adjudicator_id": identity,
        "labels": list(config.labels),
        "execution": config.execution,
        "budget": config.budget,
        "order": None if config.order is None else list(config.order),
        "verify_fraction": config.verify_fraction,
        "verify_seed": config.verify_seed,
        "repeats": config.repeats,
        "timeout_s": config.timeout_s,
        "sources": list(case_set.sources),
        "plugin_options": dict(config.plugin_options),
    }


def _certify_all(config: CertifyConfig, case_set: CaseSet, executor: Executor) -> list[CaseResult]:
    cases = case_set.cases
    results: dict[int, CaseResult] = {}
    with (
        Progress(len(cases), "certify", "cases", enabled=config.progress) as bar,
        ThreadPoolExecutor(max_workers=config.workers) as pool,
    ):
        pending: dict[Future[CaseResult], int] = {}
        queue = iter(enumerate(cases))
        try:
            # submit at most 2 x workers cases ahead, so a Ctrl-C leaves little queued work
            while True:
                while len(pending) < 2 * config.workers:
                    item = next(queue, None)
                    if item is None:
                        break
                    index, case = item
                    future = pool.submit(
                        certify_case,
                        case,
                        case_set.sources,
                        executor,
                        config.execution,
                        config.budget,
                        config.order,
                        config.verify_fraction,
                        config.verify_seed,
                    )
                    pending[future] = index
                if not pending:
                    break
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    results[pending.pop(future)] = future.result()
                    # before the update, so that every line carries it: a wait that returns two
                    # finished cases prints two lines in a row
                    bar.set_postfix(executed=executor.executed)
                    bar.update()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [results[i] for i in range(len(cases))]


def run_certify(config: CertifyConfig) -> CertifySummary:
    """Certify every case of ``config.cases``; write receipts JSONL and the summary reports."""
    config.validate()
    case_set = read_cases(config.cases, config.sources)
    out = OutputDir(config.out_dir, "certify", config.overwrite)
    for name in OUTPUTS:
        out.check(name)  # refuse before executing anything
    options = PluginOptions(
        config.timeout_s, dict(config.plugin_options), config.labels, case_set.sources
    )
    adjudicator = make_adjudicator(config.adjudicator, options)
    identity = config.adjudicator_id(adjudicator.id)
    cache = ExecutionCache(config.cache_path)
    executor = Executor(adjudicator, identity, config.labels, cache, config.repeats)
    cached_before, start = len(cache), time.monotonic()
    try:
        results = _certify_all(config, case_set, executor)
    except AdjudicatorUnavailable as exc:
        raise AdjudicatorUnavailable(
            f"{exc}; stopped, {len(cache)} execution(s) kept in {config.cache_path} "
            "(a rerun resumes)"
        ) from None
    finally:
        cache.close()
    input_info = {
        "name": config.cases.resolve().name,
        "sha256": hashlib.sha256(config.cases.read_bytes()).hexdigest(),
        "cases": len(case_set.cases),
        "sources": list(case_set.sources),
    }
    summary = summarize(
        results, case_set.sources, _config_echo(config, case_set, identity), input_info
    )
    receipts = "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in results)
    with out:
        out.write_bytes("receipts.jsonl", json_utf8(receipts))
        out.write_json("summary.json", summary.to_json())  # ASCII JSON: escapes everything
        out.write_bytes("summary.md", json_utf8(to_markdown(summary)))
        out.write_bytes("summary.html", json_utf8(to_html(summary)))
    stats = RunStats(executor.executed, cached_before, time.monotonic() - start)
    return replace(summary, run=stats)
