import json

history = context["conversation_history"]
decoded_by_call = {}
for rec in history:
    name = rec.get("method_name")
    if not name:
        continue
    kinds = []
    for position, arg in enumerate(rec.get("args") or []):
        if type(arg) is not str:
            continue
        try:
            value = json.loads(arg)
        except ValueError:
            continue
        if isinstance(value, dict):
            kinds.append((position, "object"))
        elif isinstance(value, list):
            kinds.append((position, "array"))
    if kinds:
        decoded_by_call[rec.get("call_id")] = {"method": name, "encoded_args": kinds}
result = decoded_by_call
