"""A stratum (docs/extending.md, "A new stratum") and a benchmark that builds it: the test
suite's toy stratum, registered as ``toy``, and ``benchmark=toy_small`` (benchmark=small with
``toy`` in the paper strata's place) stored in Hydra's ConfigStore, so that
``reasonbench generate plugins=[rb_toys.stratum] benchmark=toy_small`` builds it."""

from hydra.core.config_store import ConfigStore

from reasonbench.strata.registry import STRATA
from tests.assembly.toy import ToyStratum
from tests.test_extending import toy_config

STRATA.register("toy", lambda: ToyStratum("toy", 20))

_benchmark = toy_config()
_benchmark["name"] = "toy_small"
ConfigStore.instance().store(group="benchmark", name="toy_small", node=_benchmark)
