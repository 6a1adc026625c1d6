from itertools import groupby

log = context.get("conversation_history") or []
failures = [
    r for r in log
    if not r.get("outcome_summary", {}).get("ok", True) and r["outcome_summary"].get("error_type")
]
failures.sort(key=lambda r: r["outcome_summary"]["error_type"])
[
    {"error_type": key, "occurrences": len(group), "example": group[0]["outcome_summary"].get("error_message")}
    for key, group in ((k, list(g)) for k, g in groupby(failures, key=lambda r: r["outcome_summary"]["error_type"]))
    if len(group) >= 2
]
