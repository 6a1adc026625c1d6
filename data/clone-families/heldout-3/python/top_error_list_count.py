types = [
    r["outcome_summary"]["error_type"]
    for r in conversation_history
    if not r["outcome_summary"]["ok"] and r["outcome_summary"].get("error_type")
]
if types:
    top = max(dict.fromkeys(types), key=types.count)
    result = f"most frequent error: {top} ({types.count(top)}x)"
else:
    result = "no errors"
