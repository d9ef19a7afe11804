"""The refund policy as a command adjudicator: one hybrid as JSON on stdin, the verdict on stdout.

Run by ``reasonbench certify`` as ``command:python3 data/examples/certify/refund_judge.py``. It
knows only the conditions "new", "opened" and "used", and exits with status 2 on any other: the
certifier counts that as a crash of that hybrid and leaves the case uncertified.
"""

import json
import sys

KNOWN_CONDITIONS = {"new", "opened", "used"}

hybrid = json.load(sys.stdin)
request, policy = hybrid["request"], hybrid["policy"]
if request["condition"] not in KNOWN_CONDITIONS:
    print(f"unknown condition {request['condition']!r}", file=sys.stderr)
    sys.exit(2)
window = policy["window_days"] + hybrid["season"]["extra_days"]
if request["amount"] > hybrid["agent"]["limit"]:
    verdict = "refer"
elif request["days"] > window or request["condition"] not in policy["accepted"]:
    verdict = "deny"
else:
    verdict = "approve"
print(json.dumps({"verdict": verdict}))
