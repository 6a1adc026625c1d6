import re

rows = []
for rec in context.get("conversation_history") or []:
    summary = rec.get("outcome_summary")
    if not isinstance(summary, dict) or summary.get("ok") is not False:
        continue
    message = summary.get("error_message")
    if not isinstance(message, str):
        continue
    found = re.findall(r"(?i)retry[- ]after:?\s*(\d+)", message)
    if found:
        rows.append((rec.get("call_id"), rec.get("method_name"), int(found[0])))

rows.sort(key=lambda row: row[2], reverse=True)
result = rows
