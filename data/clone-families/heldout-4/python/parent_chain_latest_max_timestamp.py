records = context.get("conversation_history") or []
lookup = dict((r["call_id"], r) for r in records)
latest = max(records, key=lambda r: r["timestamp"], default=None)

lineage = []
seen = set()
cursor = latest
while cursor and cursor["call_id"] not in seen:
    seen.add(cursor["call_id"])
    lineage.append((cursor["call_id"], cursor["method"], cursor.get("depth")))
    parent = cursor.get("parent_call_id")
    cursor = lookup.get(parent) if parent else None

result = lineage
