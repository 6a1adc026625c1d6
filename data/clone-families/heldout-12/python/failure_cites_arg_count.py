from collections import Counter

history = context.get("conversation_history", [])
per_method = Counter()
ids = []
for rec in history:
    status = (rec.get("outcome_summary") or {})
    if status.get("ok") is False:
        msg = status.get("error_message") or ""
        own = {a for a in rec.get("args") or [] if isinstance(a, str) and a}
        if any(msg.count(a) for a in own):
            ids.append(rec.get("call_id"))
            per_method[rec.get("method_name") or "?"] += 1
result = {"call_ids": ids, "by_method": dict(per_method)}
