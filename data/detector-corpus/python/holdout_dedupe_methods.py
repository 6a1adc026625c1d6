seen = set()
ordered = []
for rec in context.get("conversation_history", []):
    name = rec["method_name"]
    if name in seen:
        continue
    seen.add(name)
    ordered.append(name)
result = ordered
