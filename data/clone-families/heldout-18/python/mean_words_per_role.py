history = context.get("conversation_history", [])
totals = {}
counts = {}
for record in history:
    role = record.get("role")
    content = record.get("content")
    if not role or not isinstance(content, str):
        continue
    totals[role] = totals.get(role, 0) + len(content.split())
    counts[role] = counts.get(role, 0) + 1
result = {role: round(totals[role] / counts[role], 1) for role in totals}
