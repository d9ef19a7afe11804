"""A stratum (docs/extending.md, "A new stratum") and a benchmark that builds it: the package's
example stratum (reasonbench/strata/toy.py), registered as ``toy``, and ``benchmark=toy_small``
(benchmark=small with ``toy`` in the paper strata's place), so that ``reasonbench generate
plugins=[rb_toys.stratum] benchmark=toy_small`` builds it. It imports nothing but reasonbench."""

from reasonbench.cli.benchmarks import benchmark_config, store_benchmark, with_stratum
from reasonbench.strata.registry import STRATA
from reasonbench.strata.toy import ToyStratum

STRATA.register("toy", lambda: ToyStratum("toy", 20))

config = with_stratum(
    benchmark_config("small"),
    "toy",
    like="organizational",
    held_out_operators=["n_exempt"],
    held_out_family="held",
)
# a benchmark of 20 toy units: fewer changed and ambiguous cases than small's two strata; the toy
# rarely needs all three sources
config["quotas"].update(changed=60, ambiguous=8, min_sizes=[1, 2])
config["cardinality"]["train"]["cases"] = config["cardinality"]["test"]["cases"] = 10
store_benchmark("toy_small", config)
