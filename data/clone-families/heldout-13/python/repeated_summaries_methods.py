from collections import OrderedDict

history = context.get("conversation_history", [])
first_by_summary = OrderedDict()
repeated = []

for item in history:
    status = item.get("outcome_summary") or {}
    if status.get("ok") is not True:
        continue
    value = status.get("summary") or ""
    if value == "":
        continue
    method = item.get("method_name") or item.get("role")
    if value in first_by_summary:
        repeated.append((item.get("call_id"), method, first_by_summary[value]))
        continue
    first_by_summary[value] = item.get("call_id")

result = repeated
