"""ReasonBench inside the evaluation harnesses people already run (docs/integrations.md).

* :mod:`reasonbench.integrations.lm_eval`: ``reasonbench export-lm-eval`` writes an
  lm-evaluation-harness task directory (one task per target, the group ``reasonbench``); its
  hooks load a local build and score with the frozen parsers.
* :mod:`reasonbench.integrations.inspect`: the inspect_ai task ``reasonbench(target=..., ...)``.
* :mod:`reasonbench.integrations.logs`: ``reasonbench import-lm-eval`` and ``import-inspect``
  turn either harness's logs into prediction records that ``analyze`` and ``tables`` read.

What both share (the rows a task evaluates, how one output is read, recorded and scored) is in
:mod:`reasonbench.integrations.common`. Neither harness is a dependency of reasonbench: they are
the extras ``.[lm-eval]`` and ``.[inspect]``, imported only by the code that needs them.
"""
