history = context["conversation_history"]
index = {}
for h in history:
    index[h["call_id"]] = h


def ancestry(call_id, seen=None):
    seen = seen or set()
    if call_id is None or call_id in seen or call_id not in index:
        return []
    seen.add(call_id)
    return [call_id] + ancestry(index[call_id].get("parent_call_id"), seen)


result = ancestry(history[-1]["call_id"]) if history else []
