hist = context.get("conversation_history") or []
mem = context.get("memory") or {}
notes = mem.get("notes", "")
seen_before = mem.get("seen_call_ids") or []
rows = []
for h in hist:
    if h["call_id"] in seen_before:
        continue
    rows.append({"call_id": h["call_id"], "role": h.get("role")})
if notes:
    notes_length = len(notes)

rows
