"""A trained run as a standard Hugging Face model directory (``reasonbench export-model``).

A run of ``reasonbench train`` holds its trained weights only: a LoRA adapter over a backbone
(for the CPU models, a tiny base built inside reasonbench's cache) or, for ``tuning: full``, the
whole model. Other tools (``transformers``, lm_eval's ``--model hf``, inspect_ai's ``hf/``
provider, ``transformers serve``, vLLM) need one directory with everything in it. The export
writes:

* the merged weights (``model.safetensors``) and ``config.json``;
* the tokenizer, with a chat template that passes the prompt through unchanged: the tasks of
  ``export-lm-eval`` and ``export-inspect`` already give the trained input (the prompt and the
  answer cue, :func:`reasonbench.models.prompting.model_input`), so a tool that applies a chat
  template sends exactly the tokens ``reasonbench predict`` decodes;
* ``generation_config.json``: greedy, to the target's decoding budget, stopping at the
  end-of-sequence token, as ``predict`` decodes;
* ``reasonbench_export.json``: the run it came from (method, target, seed, tuning, backbone
  identity, the trained weights' hash) and the answer cue.

The backbone is the one the run recorded; where that directory is gone (another machine, an empty
cache), it is rebuilt from the run's ``config.yaml`` and must have the recorded identity.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reasonbench.io import write_json
from reasonbench.io.outputs import claim_directory, replace_directory
from reasonbench.models.backbone import (
    Backbone,
    BackboneNotFound,
    backbone_at,
    identity,
    load_model,
    load_tokenizer,
    resolve_backbone,
)
from reasonbench.models.prompting import ANSWER_CUE
from reasonbench.models.trained import RunFileError, RunNotFinished, TrainedRun
from reasonbench.models.tuning import get_tuning, weights_hash
from reasonbench.targets import get_target

__all__ = ["EXPORT_FILE", "PASS_THROUGH", "ExportError", "export_model"]

EXPORT_FILE = "reasonbench_export.json"
# Every message's text, in order, and nothing else: the task's prompt already ends in the cue.
PASS_THROUGH = "{%- for message in messages -%}{{ message['content'] }}{%- endfor -%}"


class ExportError(ValueError):
    """A run that cannot be exported; the message names the run and what is wrong."""


def _run_config(run: TrainedRun) -> Mapping[str, Any]:
    import yaml

    path = run.directory / "config.yaml"
    try:
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ExportError(f"{path}: not a readable run config ({exc})") from None
    if not isinstance(config, Mapping) or not isinstance(config.get("model"), Mapping):
        raise ExportError(f"{path}: no model section")
    return config


def run_backbone(run: TrainedRun, data_dir: Path | None = None) -> Backbone:
    """The backbone ``run`` trained on: the recorded directory if it is there with the recorded
    identity, else the one its config builds (``data_dir``: the benchmark a tiny base is built
    from, default the run's own ``data_dir``)."""
    recorded = run.backbone_path
    if (recorded / "config.json").is_file() and identity(recorded) == run.backbone_identity:
        return backbone_at(recorded, str(run.field("backbone", "name")))
    config = _run_config(run)
    source = Path(data_dir if data_dir is not None else str(config.get("data_dir", "")))
    try:
        backbone = resolve_backbone(config["model"], source)
    except (BackboneNotFound, ValueError, FileNotFoundError) as exc:
        raise ExportError(f"{run.directory}: its backbone {recorded} is gone ({exc})") from None
    if backbone.identity != run.backbone_identity:
        raise ExportError(
            f"{run.directory}: the backbone rebuilt at {backbone.path} is not the one the run "
            f"trained on (identity {backbone.identity[:12]}, recorded "
            f"{run.backbone_identity[:12]}); give data_dir= the benchmark it was built from"
        )
    return backbone


def export_model(
    run_dir: Path, out_dir: Path, data_dir: Path | None = None, overwrite: bool = False
) -> dict[str, Any]:
    """Write ``run_dir``'s model to ``out_dir`` (swapped in whole when complete); its record."""
    from transformers import GenerationConfig

    try:
        run = TrainedRun.read(run_dir)
        tuning = get_tuning(run.tuning)
    except (RunNotFinished, RunFileError, KeyError) as exc:
        raise ExportError(str(exc).strip("'\"")) from None

    def ours(directory: Path) -> bool:
        return (directory / EXPORT_FILE).is_file()

    # a directory that is not an export is refused before the model loads (and again, whole, at
    # the swap below)
    claim_directory(out_dir, (EXPORT_FILE,), "an exported model", overwrite)
    backbone = run_backbone(run, data_dir)
    weights = run.adapter_dir
    model = load_model(backbone_at(tuning.model_dir(backbone.path, weights)), "fp32", "sdpa")
    model = tuning.adapt(model, weights, True)  # LoRA folded in: a plain causal LM
    tokenizer = load_tokenizer(backbone)
    tokenizer.chat_template = PASS_THROUGH
    model.generation_config = GenerationConfig(  # type: ignore[no-untyped-call]
        do_sample=False,
        max_new_tokens=get_target(run.target).max_new_tokens,
        eos_token_id=int(tokenizer.eos_token_id),
        pad_token_id=int(tokenizer.pad_token_id),
    )
    model.config.name_or_path = run.method  # not where this machine's cache happens to be
    record = {
        "method": run.method,
        "target": run.target,
        "seed": run.seed,
        "tuning": run.tuning,
        "backbone": {"name": backbone.name, "identity": backbone.identity},
        "weights_sha256": weights_hash(tuning, weights),
        "answer_cue": ANSWER_CUE,
        "chat_template": PASS_THROUGH,
    }
    staging = out_dir.with_name(f".{out_dir.name}.export-{uuid.uuid4().hex[:8]}")
    try:
        staging.mkdir(parents=True)
        model.save_pretrained(str(staging), safe_serialization=True)
        tokenizer.save_pretrained(str(staging))
        write_json(staging / EXPORT_FILE, record)
        replace_directory(staging, out_dir, ours, "an exported model", overwrite)
    finally:
        if staging.exists():  # ours alone (a unique name): a failed or refused export leaves none
            shutil.rmtree(staging)
    return record
