history = context.get("conversation_history", [])
needs = set()
met = set()
for record in history:
    need = record.get("need")
    if not need:
        continue
    needs.add(need)
    if (record.get("outcome_summary") or {}).get("ok") is True:
        met.add(need)
result = sorted(needs - met)
