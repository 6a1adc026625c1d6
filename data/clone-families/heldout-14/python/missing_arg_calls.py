history = context.get("conversation_history", [])
missing_calls = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    args = record.get("args") or []
    if not args or any(arg is None for arg in args):
        missing_calls[method] = missing_calls.get(method, 0) + 1
result = missing_calls
