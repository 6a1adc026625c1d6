import json

history = context.get("conversation_history", [])
flagged = []
for call in history:
    if not call.get("method_name"):
        continue
    for arg in call.get("args") or []:
        if not isinstance(arg, str):
            continue
        try:
            decoded = json.loads(arg)
        except ValueError:
            continue
        if isinstance(decoded, (dict, list)):
            flagged.append(call.get("call_id"))
            break
result = flagged
