records = context["conversation_history"]
starts = [i for i, r in enumerate(records) if r.get("role") == "user"]
bounds = list(zip(starts, starts[1:] + [len(records)]))


def outcome_ok(r):
    s = r.get("outcome_summary")
    return s.get("ok") if isinstance(s, dict) else None


shares = {}
for lo, hi in bounds:
    judged = [outcome_ok(r) for r in records[lo:hi] if outcome_ok(r) in (True, False)]
    if judged:
        shares[records[lo].get("call_id")] = round(judged.count(False) / len(judged), 4)
result = shares
