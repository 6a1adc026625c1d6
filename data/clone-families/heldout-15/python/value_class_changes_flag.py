history = context["conversation_history"]
timeline = []
seen_class = {}
total_ok = 0
for item in history:
    outcome = item.get("outcome_summary")
    method = item.get("method_name")
    if not outcome or not method:
        continue
    if outcome.get("ok") is not True:
        continue
    total_ok += 1
    cls = outcome.get("value_class")
    if not cls:
        cls = None
    flag = method in seen_class and seen_class[method] != cls
    seen_class[method] = cls
    timeline.append({"id": item.get("call_id"), "method": method, "changed": flag})

ids = [t["id"] for t in timeline if t["changed"]]
result = {"changes": ids, "count": len(ids), "successful_calls": total_ok}
