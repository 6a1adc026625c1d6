from collections import defaultdict

history = context["conversation_history"]
parents = {h["call_id"]: h for h in history if h.get("call_id")}
failed_children = defaultdict(list)
for h in history:
    outcome = h.get("outcome_summary") or {}
    parent = parents.get(h.get("parent_call_id"))
    if outcome.get("ok") is False and parent and parent.get("method_name"):
        failed_children[parent["method_name"]].append(h.get("call_id"))
result = [
    {"parent_method": name, "failed_children": len(ids), "child_call_ids": ids}
    for name, ids in sorted(failed_children.items())
]
