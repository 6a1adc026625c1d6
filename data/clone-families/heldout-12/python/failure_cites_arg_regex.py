import re

matches = []
for entry in conversation_history:
    summary = entry.get("outcome_summary") or {}
    if summary.get("ok") is not False or not summary.get("error_message"):
        continue
    texts = [a for a in entry.get("args") or [] if isinstance(a, str) and len(a) > 0]
    if not texts:
        continue
    pattern = re.compile("|".join(re.escape(t) for t in texts))
    hit = pattern.search(summary["error_message"])
    if hit:
        matches.append({"call_id": entry.get("call_id"), "method": entry.get("method_name"), "quoted": hit.group(0)})
matches
