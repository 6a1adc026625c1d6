history = context.get("conversation_history", [])
methods = []
for rec in history:
    name = rec.get("method_name")
    if name and name not in methods:
        methods.append(name)
result = {}
for name in methods:
    result[name] = 0
    for rec in history:
        text = rec.get("content")
        if isinstance(text, str) and name in text:
            result[name] += 1
