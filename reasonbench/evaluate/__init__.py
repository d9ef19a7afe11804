"""``reasonbench evaluate``: any registered judge — a served LLM, a local model, a baseline — on
any benchmark splits, written as prediction records that ``analyze``, ``tables`` and
``judge-card`` read like any other method's (docs/evaluate.md)."""

from reasonbench.evaluate.lenient import lenient_parse
from reasonbench.evaluate.outputs import EvaluateError
from reasonbench.evaluate.run import EvaluateSettings, Metered, evaluate

__all__ = ["EvaluateError", "EvaluateSettings", "Metered", "evaluate", "lenient_parse"]
