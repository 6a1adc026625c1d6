records = context["conversation_history"]
tally = {}
for rec in records:
    who = rec.get("speaker", "unknown")
    tally[who] = tally.get(who, 0) + 1
result = "\n".join(
    f"{who}: {100 * n / len(records):.1f}% ({n} records)" for who, n in sorted(tally.items(), key=lambda kv: -kv[1])
)
