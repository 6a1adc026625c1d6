import re

suspicious = re.compile(r"warn|partial|truncat", re.IGNORECASE)
records = context["conversation_history"]
result = [
    rec["call_id"]
    for rec in records
    if (rec.get("outcome_summary") or {}).get("ok") is True
    and suspicious.search((rec.get("outcome_summary") or {}).get("summary") or "")
]
