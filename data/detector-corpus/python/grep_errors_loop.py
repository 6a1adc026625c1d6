import re

# Step 1: find calls whose outcome mentions a network failure.
history = context.get("conversation_history") or []
pattern = re.compile(r"timeout|refused", re.IGNORECASE)
hits = []
for record in history:
    summary = str(record.get("outcome_summary", ""))
    if pattern.search(summary):
        hits.append(record["call_id"])
result = hits
