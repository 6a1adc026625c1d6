memory = context.get("memory")
already = memory.get("seen_call_ids", []) if isinstance(memory, dict) else []
new_ids = []
old = 0
for entry in context["conversation_history"]:
    if entry["call_id"] in already:
        old += 1
    else:
        new_ids.append(entry["call_id"])
result = {"new": new_ids, "new_count": len(new_ids), "already_seen": old}
