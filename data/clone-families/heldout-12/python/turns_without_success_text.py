turns = []
for entry in conversation_history:
    if entry.get("role") == "user":
        turns.append({"id": entry.get("call_id"), "ok": 0})
    elif turns:
        summary = entry.get("outcome_summary")
        if summary and summary.get("ok"):
            turns[-1]["ok"] += 1

open_ids = [t["id"] for t in turns if t["ok"] == 0]
if open_ids:
    report = f"{len(open_ids)} of {len(turns)} user turns got no successful result: " + ", ".join(open_ids)
else:
    report = "every user turn got at least one successful result"
report
