calls = context.get("conversation_history", [])
with_flags = []
for call in calls:
    if not isinstance(call, dict) or not call.get("method_name"):
        continue
    args = call.get("args") or []
    if list(filter(lambda arg: isinstance(arg, bool), args)):
        with_flags.append(call.get("call_id"))
result = with_flags
