from collections import Counter

history = context.get("conversation_history", [])
counts = Counter()
for record in history:
    outcome = record.get("outcome_summary") or {}
    if not outcome.get("ok") and outcome.get("error_type"):
        counts[outcome["error_type"]] += 1

result = sorted(t for t, c in counts.items() if c >= 2)
