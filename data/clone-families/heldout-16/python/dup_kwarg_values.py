history = context.get("conversation_history", [])
result = []
for record in history:
    if not record.get("method_name"):
        continue
    kwargs = record.get("kwargs")
    if not isinstance(kwargs, dict):
        continue
    values = [v for v in kwargs.values() if isinstance(v, str) and v]
    if len(values) != len(set(values)):
        result.append(record.get("call_id"))
