first_fail = {}
last_ok = {}
for pos, item in enumerate(conversation_history):
    m = item.get("method_name")
    if m is None:
        continue
    status = item.get("outcome_summary", {}).get("status")
    if status == "ok":
        last_ok[m] = pos
    else:
        first_fail.setdefault(m, pos)

back = sorted(m for m, p in first_fail.items() if last_ok.get(m, -1) > p)
result = "recovered after failing: " + ", ".join(back) if back else "no method recovered"
