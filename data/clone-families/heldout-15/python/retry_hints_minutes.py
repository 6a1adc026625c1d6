import re

pattern = re.compile(r"retry[- ]after:?\s*(\d+)", re.I)
history = context["conversation_history"]
failures = [h for h in history if (h.get("outcome_summary") or {}).get("ok") is False]
waits = {}
for f in failures:
    text = f["outcome_summary"].get("error_message") or ""
    m = pattern.search(text)
    if m is None:
        continue
    waits[f.get("call_id")] = {"method": f.get("method_name"), "minutes": round(int(m.group(1)) / 60, 2)}
result = waits
