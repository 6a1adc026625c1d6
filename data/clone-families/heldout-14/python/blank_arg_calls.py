history = context.get("conversation_history", [])
blank_calls = {}
for record in history:
    method = record.get("method_name")
    if not method:
        continue
    args = record.get("args") or []
    if any(isinstance(arg, str) and not arg.strip() for arg in args):
        blank_calls[method] = blank_calls.get(method, 0) + 1
result = blank_calls
