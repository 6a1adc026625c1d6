history = context.get("conversation_history", [])
seen = {}
duplicated = []
for record in history:
    parent = record.get("parent_call_id")
    method = record.get("method_name")
    if not parent or not method:
        continue
    key = (parent, method)
    seen[key] = seen.get(key, 0) + 1
    if seen[key] == 2 and parent not in duplicated:
        duplicated.append(parent)
result = duplicated
