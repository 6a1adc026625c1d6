size = int(kwargs["n"])
good = total = 0
for rec in reversed(context["conversation_history"]):
    if total == size:
        break
    total += 1
    if rec["outcome_summary"]["status"] == "ok":
        good += 1

result = round(100.0 * good / total, 1) if total else None
