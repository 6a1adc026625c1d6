history = context.get("conversation_history", [])
methods = []
for rec in history:
    name = rec.get("method_name")
    if name and name not in methods:
        methods.append(name)
result = 0
for rec in history:
    text = rec.get("content")
    if isinstance(text, str) and any(name in text for name in methods):
        result += 1
