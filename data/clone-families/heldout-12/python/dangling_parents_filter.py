log = context.get("conversation_history", [])
notes = (context.get("memory") or {}).get("notes", [])
seen_ids = frozenset(map(lambda r: r.get("call_id"), log))
is_orphan = lambda r: bool(r.get("parent_call_id")) and r.get("parent_call_id") not in seen_ids
orphans = list(map(lambda r: r.get("call_id"), filter(is_orphan, log)))
{"orphans": orphans, "note_count": len(notes)}
