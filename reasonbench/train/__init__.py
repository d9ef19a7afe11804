"""LoRA receipt predictors: data variants, batching, the training loop, checkpoints and resume."""

from reasonbench.train.batching import MODES, MicroBatch, micro_batches
from reasonbench.train.data import TrainExample, data_manifest, training_examples
from reasonbench.train.fingerprint import RunConflict
from reasonbench.train.lora import TargetTokenLoss, add_lora
from reasonbench.train.run import train

__all__ = [
    "MODES",
    "MicroBatch",
    "RunConflict",
    "TargetTokenLoss",
    "TrainExample",
    "add_lora",
    "data_manifest",
    "micro_batches",
    "train",
    "training_examples",
]
