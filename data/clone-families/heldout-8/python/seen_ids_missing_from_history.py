history = context.get("conversation_history", [])
memory = context.get("memory") or {}
present = set(rec["call_id"] for rec in history)
result = [cid for cid in (memory.get("seen_call_ids") or []) if cid not in present]
