import re

IPV4 = re.compile(r"\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b")

history = context["conversation_history"]
methods = {}
for record in history:
    outcome = record.get("outcome_summary") or {}
    if outcome.get("ok") is not False:
        continue
    message = outcome.get("error_message")
    if not isinstance(message, str) or not record.get("method_name"):
        continue
    for parts in IPV4.findall(message):
        if all(int(p) <= 255 for p in parts):
            names = methods.setdefault(".".join(parts), [])
            if record["method_name"] not in names:
                names.append(record["method_name"])
result = methods
