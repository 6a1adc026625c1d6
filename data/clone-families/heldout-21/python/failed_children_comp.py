from collections import Counter

history = context["conversation_history"]
result = dict(
    Counter(
        record.get("parent_call_id")
        for record in history
        if isinstance(record, dict)
        and record.get("parent_call_id")
        and isinstance(record.get("outcome_summary"), dict)
        and record["outcome_summary"].get("ok") is False
    )
)
