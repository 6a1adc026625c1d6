log = context.get("conversation_history") or []
names = sorted({r["method_name"] for r in log if r.get("method_name")})


def ok(r):
    return (r.get("outcome_summary") or {}).get("ok") is True


recoveries = []
for name in names:
    runs = [(i, r) for i, r in enumerate(log) if r.get("method_name") == name]
    fails = [i for i, r in runs if not ok(r)]
    if fails:
        fix = next((r for i, r in runs if i > fails[0] and ok(r)), None)
        if fix is not None:
            recoveries.append((name, log[fails[0]]["call_id"], fix["call_id"]))

result = recoveries
