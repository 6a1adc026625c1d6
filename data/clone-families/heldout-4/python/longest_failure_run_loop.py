history = context.get("conversation_history", [])

longest = 0
current = 0
for rec in history:
    if rec["outcome_summary"]["ok"]:
        current = 0
    else:
        current += 1
        longest = max(longest, current)

result = longest
