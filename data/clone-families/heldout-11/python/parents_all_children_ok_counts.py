history = context.get("conversation_history") or []
lookup = {rec["call_id"]: rec for rec in history}
stats = {}
for rec in history:
    pid = rec.get("parent_call_id")
    if pid is None or pid == "" or pid not in lookup:
        continue
    entry = stats.setdefault(pid, {"children": 0, "ok": 0})
    entry["children"] += 1
    if (rec.get("outcome_summary") or {}).get("ok") is True:
        entry["ok"] += 1

lines = [
    f"{pid} ({lookup[pid].get('method_name') or lookup[pid].get('role')}): all {s['children']} child calls ok"
    for pid, s in stats.items()
    if s["ok"] == s["children"]
]
"\n".join(lines) if lines else "no parent with only successful children"
