entries = context.get("conversation_history", [])
last_pos = {}
for pos, e in enumerate(entries):
    last_pos[e["method"]] = pos

ranked = sorted(last_pos, key=lambda m: last_pos[m], reverse=True)
result = [(m, entries[last_pos[m]]["call_id"]) for m in ranked[:3]]
