import re

UNITS = {"B": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}
SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB|B)\b", re.IGNORECASE)

history = context.get("conversation_history") or []
result = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not True:
        continue
    summary = outcome.get("summary")
    method = record.get("method_name")
    if not isinstance(summary, str) or not method:
        continue
    sizes = [float(num) * UNITS[unit.upper()] for num, unit in SIZE.findall(summary)]
    if sizes:
        result[method] = result.get(method, 0) + sum(sizes)
