from collections import Counter

calls = context.get("conversation_history", [])
result = dict(Counter(
    c["outcome_summary"].get("error_type") or "Unknown"
    for c in calls
    if c["outcome_summary"].get("status") == "error"
))
