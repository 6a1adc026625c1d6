from collections import Counter

history = context.get("conversation_history") or []
fanout = Counter(
    (item["parent_call_id"], item["method_name"], str(item.get("args") or []))
    for item in history
    if item.get("parent_call_id") and item.get("method_name")
)
parents = sorted({parent for (parent, _, _), n in fanout.items() if n > 1})
result = {"parents": parents, "redundant_calls": sum(n - 1 for n in fanout.values() if n > 1)}
