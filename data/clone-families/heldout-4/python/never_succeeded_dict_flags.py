calls = conversation_history

ever_ok = {}
for call in calls:
    m = call.get("method")
    ok = bool(call.get("outcome_summary", {}).get("ok"))
    ever_ok[m] = ever_ok.get(m, False) or ok

never = [m for m, flag in ever_ok.items() if not flag]
never.sort()
result = {"never_succeeded": never, "methods_seen": len(ever_ok)}
