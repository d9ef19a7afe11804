"""A certify adjudicator kind (docs/certify.md, "Writing a plug-in kind"): ``passmark:<field>``
grades a hybrid of tests/certify's cases against the rubric's ``<field>``, and refers a grader
outside the rubric's course."""

from collections.abc import Mapping
from typing import Any

from reasonbench.certify.plugins import PluginOptions, register_kind


class PassMark:
    def __init__(self, target: str, options: PluginOptions) -> None:
        self.field = target
        self.id = f"passmark:{target}"

    def __call__(self, hybrid: Mapping[str, Any]) -> str:
        grader, score, rubric = hybrid["grader"], hybrid["score"], hybrid["rubric"]
        if rubric["course"] not in grader["courses"]:
            return "refer"
        return "pass" if score >= rubric[self.field] else "fail"


register_kind("passmark")(PassMark)
