import json
from collections import defaultdict

payload = context.get("input") or "{}"
try:
    request = json.loads(payload)
except ValueError:
    request = {}

errs = defaultdict(int)
for record in context["conversation_history"]:
    oc = record["outcome_summary"]
    if oc["ok"] is False:
        errs[oc["error_type"] or "Unknown"] += 1

result = {"request_id": request.get("id"), "errors_by_type": dict(errs), "total_errors": sum(errs.values())}
