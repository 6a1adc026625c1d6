import re

records = context["conversation_history"]
tally = {}
for rec in records:
    summary = rec.get("outcome_summary")
    if not summary or summary.get("ok") is not False:
        continue
    text = summary.get("error_message")
    if not isinstance(text, str):
        continue
    for match in re.finditer(r"\b([45][0-9]{2})\b", text):
        code = int(match.group(1))
        tally[code] = tally.get(code, 0) + 1
result = {"http_status_codes": tally, "failures_scanned": sum(1 for r in records if (r.get("outcome_summary") or {}).get("ok") is False)}
