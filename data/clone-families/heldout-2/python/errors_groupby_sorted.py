from itertools import groupby


def err_type(r):
    return r["outcome_summary"].get("error_type") or "Unknown"


failures = [r for r in conversation_history if (r.get("outcome_summary") or {}).get("ok") is False]
failures.sort(key=err_type)
result = {k: [r.get("call_id") for r in grp] for k, grp in groupby(failures, key=err_type)}
