import json

history = context.get("conversation_history", [])
flagged = []
for call in history:
    if not call.get("method_name"):
        continue
    for arg in call.get("args") or []:
        if isinstance(arg, str):
            continue
        if isinstance(arg, (dict, list)):
            flagged.append({"call_id": call.get("call_id"), "arg": json.dumps(arg)})
            break
result = flagged
