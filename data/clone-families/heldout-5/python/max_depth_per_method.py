history = context.get("conversation_history", [])

deepest = {}
for rec in history:
    m = rec.get("method_name")
    if m not in deepest or rec.get("depth", 0) > deepest[m]:
        deepest[m] = rec.get("depth", 0)

result = deepest
