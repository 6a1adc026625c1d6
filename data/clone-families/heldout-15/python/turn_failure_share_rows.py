def is_failure(msg):
    return (msg.get("outcome_summary") or {}).get("ok") is False


def has_verdict(msg):
    return (msg.get("outcome_summary") or {}).get("ok") in (True, False)


turns = []
for msg in conversation_history:
    if msg.get("role") == "user":
        turns.append({"turn": msg.get("call_id"), "asked_at": msg.get("timestamp"), "records": [msg]})
    elif turns:
        turns[-1]["records"].append(msg)

rows = []
for t in turns:
    judged = [m for m in t["records"] if has_verdict(m)]
    if not judged:
        continue
    failed = sum(1 for m in judged if is_failure(m))
    rows.append({"turn": t["turn"], "asked_at": t["asked_at"], "failed": failed, "judged": len(judged),
                 "share": round(failed / len(judged), 3)})
rows
