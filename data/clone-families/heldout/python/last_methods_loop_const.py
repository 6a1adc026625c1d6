N = 5
records = context.get("conversation_history", [])
names = []
for rec in records[-N:]:
    names.append(rec.get("method_name"))
result = names
