from datetime import datetime

records = context["conversation_history"]
by_id = {r["call_id"]: r for r in records}


def when(r):
    return datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00"))


lag = {}
for child in records:
    parent = by_id.get(child.get("parent_call_id") or "")
    if parent is None:
        continue
    lag[child["call_id"]] = {"parent": parent["call_id"], "seconds": (when(child) - when(parent)).total_seconds()}
result = lag
