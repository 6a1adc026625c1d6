history = context.get("conversation_history", [])
maxima = {}
for record in history:
    kwargs = record.get("kwargs")
    if not isinstance(kwargs, dict):
        continue
    for key, value in kwargs.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if key not in maxima or value > maxima[key]:
            maxima[key] = value
result = maxima
