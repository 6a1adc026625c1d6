import re

term = kwargs.get("keyword", "timeout")
pattern = re.compile(re.escape(term), re.IGNORECASE)
found = []
for entry in conversation_history:
    summary = entry.get("outcome_summary") or {}
    if summary.get("ok") is False and pattern.search(summary.get("error_message") or ""):
        found.append(entry.get("call_id"))
if found:
    result = f"{len(found)} failed call(s) mention '{term}': " + ", ".join(found)
else:
    result = f"no failed call mentions '{term}'"
