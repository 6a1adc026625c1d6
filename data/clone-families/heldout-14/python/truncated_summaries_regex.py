import re

ELLIPSIS = re.compile(r"(?:\.\.\.|…)\s*$")
records = context.get("conversation_history") or []
result = [
    {
        "id": r.get("call_id"),
        "method": r.get("method_name"),
        "summary": r["outcome_summary"]["summary"],
    }
    for r in records
    if isinstance(r.get("outcome_summary"), dict)
    and r["outcome_summary"].get("ok") is True
    and isinstance(r["outcome_summary"].get("summary"), str)
    and ELLIPSIS.search(r["outcome_summary"]["summary"])
]
