"""ReasonBench as lm-evaluation-harness tasks: ``reasonbench export-lm-eval`` and the hooks the
exported task files name.

The export writes, for each target, ``reasonbench_<target>.yaml`` (the task
``reasonbench_<target>``) and ``reasonbench.yaml`` (the group ``reasonbench``). A task

* loads the chosen split of a local build through :func:`load_docs` (``custom_dataset``: the
  project's split reader, nothing from a hub), and ``train`` as the few-shot pool;
* asks :func:`doc_to_text`: the frozen prompt and the answer cue; with ``instruction`` the
  target's task instruction is the task's ``description`` (a system prompt under
  ``--apply_chat_template``);
* generates greedily (``generate_until``) up to the target's ``max_new_tokens``, stopping at the
  model's end of sequence (the harness adds it), as ``reasonbench predict`` decodes;
* scores each output with :func:`process_results`: the target's frozen strict parser and every
  registered metric that applies to the target, aggregated by :func:`ratio` (Σ numerator /
  Σ denominator, as ``analyze``).

Few-shot examples (``--num_fewshot``) are train rows with their gold answers, joined as
``<prompt>\\n\\nAnswer:\\n<answer>\\n\\n``: the same text the project's zero-shot judges show.
Nothing here imports ``lm_eval``: the harness imports this module.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reasonbench.integrations.common import (
    Observation,
    TaskSpec,
    metric_names,
    observe,
    prompt_of,
    provenance,
    task_rows,
)
from reasonbench.integrations.common import ratio as _ratio
from reasonbench.io import OutputDir, split_path
from reasonbench.targets import TARGETS, get_target

__all__ = [
    "COMMAND",
    "GROUP",
    "doc_to_text",
    "export_tasks",
    "load_docs",
    "process_results",
    "ratio",
    "task_name",
]

COMMAND = "export-lm-eval"
GROUP = "reasonbench"
TASK_VERSION = 1  # lm-eval's task version (in its results' "versions"); bump when a task changes
FEWSHOT_SPLIT = "train"
HOOKS = "reasonbench.integrations.lm_eval"


def task_name(target: str) -> str:
    return f"{GROUP}_{target}"


def load_docs(
    data_dir: str, split: str, target: str, trim: bool, **metadata: Any
) -> dict[str, Any]:
    """The task's dataset (lm-eval's ``custom_dataset``; ``metadata`` is the harness's own):
    ``split`` and, for few-shot examples, ``train``, each row with its target and reading."""
    import datasets

    spec = TaskSpec(Path(data_dir), split, target, bool(trim))
    splits = [split] if split == FEWSHOT_SPLIT else [split, FEWSHOT_SPLIT]
    out = {}
    for name in splits:
        rows = task_rows(TaskSpec(spec.data_dir, name, target, spec.trim))
        out[name] = datasets.Dataset.from_list(
            [{**row, "target": target, "trim": spec.trim} for row in rows]
        )
    return datasets.DatasetDict(out)  # type: ignore[no-any-return]


def doc_to_text(doc: dict[str, Any]) -> str:
    return prompt_of(doc["prompt"])


def process_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, Observation]:
    """Every metric's observation of this output (the harness logs them per sample)."""
    return observe(doc, results[0], doc["target"], bool(doc["trim"]))


def ratio(items: Sequence[Observation]) -> float:
    """lm-eval's aggregation of a metric over the samples: ``analyze``'s rate."""
    return _ratio(items)


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON is YAML: strings quoted and escaped


def task_yaml(spec: TaskSpec, with_fewshot: bool) -> str:
    """One task file (written as text: lm-eval's ``!function`` tags are not plain YAML)."""
    target = get_target(spec.target)
    generation = {
        "until": [],  # the model's end of sequence only (lm-eval adds it); [] keeps its "\n\n" off
        "max_gen_toks": target.max_new_tokens,
        "do_sample": False,
        "temperature": 0.0,
    }
    loader = {"data_dir": str(spec.data_dir.resolve()), "split": spec.split,
              "target": spec.target, "trim": spec.trim}  # fmt: skip
    meta = {"version": TASK_VERSION, "reasonbench": {**provenance(spec.data_dir), **loader}}
    lines = [
        f"# reasonbench export-lm-eval: the {spec.target} target on split {spec.split}",
        f"# (docs/integrations.md); run: lm_eval --include_path <this dir> --tasks {task_name(spec.target)}",
        f"task: {task_name(spec.target)}",
        f"custom_dataset: !function {HOOKS}.load_docs",
        f"dataset_kwargs: {_scalar(loader)}",
        f"test_split: {_scalar(spec.split)}",
    ]
    if with_fewshot:
        lines.append(f"fewshot_split: {_scalar(FEWSHOT_SPLIT)}")
    lines += [
        "output_type: generate_until",
        f"doc_to_text: !function {HOOKS}.doc_to_text",
        "doc_to_target: answer",
        'target_delimiter: ""',
        f"fewshot_delimiter: {_scalar(chr(10) * 2)}",
    ]
    if spec.instruction:
        from reasonbench.judges.instructions import instruction

        lines.append(f"description: {_scalar(instruction(spec.target) + chr(10) * 2)}")
    lines += [
        f"generation_kwargs: {_scalar(generation)}",
        f"process_results: !function {HOOKS}.process_results",
        "metric_list:",
    ]
    for name in metric_names(spec.target):
        # lm-eval shows an arrow from higher_is_better (display only): the accuracies are
        # better high, every other registered metric is a failure rate or gap
        lines += [
            f"  - metric: {name}",
            f"    aggregation: !function {HOOKS}.ratio",
            f"    higher_is_better: {_scalar(name.endswith('accuracy'))}",
        ]
    lines.append(f"metadata: {_scalar(meta)}")
    return "\n".join(lines) + "\n"


def group_yaml(targets: Sequence[str]) -> str:
    tasks = [task_name(t) for t in targets]
    return "\n".join(
        [
            "# reasonbench export-lm-eval: every exported target (lm_eval --tasks reasonbench)",
            f"group: {GROUP}",
            f"task: {_scalar(tasks)}",
            f"metadata: {_scalar({'version': TASK_VERSION})}",
        ]
    ) + "\n"  # fmt: skip


def export_tasks(
    data_dir: Path,
    out_dir: Path,
    split: str,
    targets: Sequence[str] | None = None,
    instruction: bool = False,
    trim: bool = True,
    overwrite: bool = False,
) -> list[Path]:
    """Write the task directory; every input is checked before the first file is written."""
    names = list(targets) if targets is not None else list(TARGETS)
    if not names:
        raise ValueError("targets is empty: name at least one target")
    if len(set(names)) != len(names):
        raise ValueError(f"targets lists a target twice: {names}")
    specs = [TaskSpec(data_dir, split, t, trim, instruction) for t in names]
    split_path(data_dir, split)  # the split exists (SplitError names the ones present)
    texts = {f"{task_name(s.target)}.yaml": task_yaml(s, _has_train(data_dir)) for s in specs}
    texts[f"{GROUP}.yaml"] = group_yaml(names)
    with OutputDir(out_dir, COMMAND, overwrite) as out:
        for name in texts:
            out.check(name)
        return [out.write_text(name, text) for name, text in texts.items()]


def _has_train(data_dir: Path) -> bool:
    return (data_dir / f"{FEWSHOT_SPLIT}.parquet").is_file()
