mem = context.get("memory") or {}
known = frozenset(mem.get("seen_call_ids") or ())
fresh_ids = {m["call_id"] for m in conversation_history} - known
fresh = [m for m in conversation_history if m["call_id"] in fresh_ids]
if fresh:
    result = f"{len(fresh)} new records: " + ", ".join(f"{m['call_id']} ({m.get('method_name') or m.get('role')})" for m in fresh)
else:
    result = "nothing new since last check"
