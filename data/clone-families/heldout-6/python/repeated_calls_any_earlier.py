history = context.get("conversation_history") or []
calls = [h for h in history if h.get("method_name")]


def same_call(a, b):
    return a["method_name"] == b["method_name"] and list(a.get("args") or []) == list(b.get("args") or [])


repeated_ids = []
for idx, call in enumerate(calls):
    if any(same_call(call, earlier) for earlier in calls[:idx]):
        repeated_ids.append(call["call_id"])
result = {"count": len(repeated_ids), "call_ids": repeated_ids}
