from collections import defaultdict

kids = defaultdict(list)
for msg in conversation_history:
    pid = (msg.get("parent_call_id") or "").strip()
    if pid:
        kids[pid].append(msg["call_id"])

result = {pid: {"count": len(ids), "children": ids} for pid, ids in kids.items()}
