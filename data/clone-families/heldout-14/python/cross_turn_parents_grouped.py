from collections import defaultdict

history = context["conversation_history"]
turn = {}
active = "(before first user message)"
for rec in history:
    if rec.get("role") == "user":
        active = rec.get("call_id")
    turn[rec.get("call_id")] = active

by_turn = defaultdict(list)
for rec in history:
    pid = rec.get("parent_call_id") or ""
    if pid and pid in turn and turn[pid] != turn[rec.get("call_id")]:
        by_turn[turn[rec.get("call_id")]].append({"id": rec.get("call_id"), "parent_turn": turn[pid]})
result = dict(by_turn)
