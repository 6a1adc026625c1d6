history = context.get("conversation_history") or []
keywords = ["warn", "partial", "truncat"]
memory = context.get("memory")

caveats = {}
total_ok = 0
for item in history:
    summary = item.get("outcome_summary")
    if not summary or summary.get("ok") != True:
        continue
    total_ok += 1
    text = summary.get("summary") or ""
    for kw in keywords:
        if kw in text.lower():
            caveats[item["call_id"]] = text
            break
result = {"ok_calls": total_ok, "with_caveats": caveats, "had_memory": memory is not None}
