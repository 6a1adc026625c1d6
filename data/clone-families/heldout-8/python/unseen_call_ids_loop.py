history = context.get("conversation_history", [])
memory = context.get("memory") or {}
seen = set(memory.get("seen_call_ids") or [])
result = [rec["call_id"] for rec in history if rec["call_id"] not in seen]
