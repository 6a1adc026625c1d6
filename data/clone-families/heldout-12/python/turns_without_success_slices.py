log = context["conversation_history"]
starts = [i for i, rec in enumerate(log) if rec.get("role") == "user"]
bounds = list(zip(starts, starts[1:] + [len(log)]))


def any_success(chunk):
    return any((rec.get("outcome_summary") or {}).get("ok") is True for rec in chunk)


result = [
    {"user_call_id": log[a]["call_id"], "question": (log[a].get("content") or "")[:60], "records": b - a - 1}
    for a, b in bounds
    if not any_success(log[a + 1:b])
]
