history = context.get("conversation_history", [])
methods = {}
turn = None
for record in history:
    if record.get("role") == "user":
        turn = record.get("call_id")
    if turn is None:
        continue
    method = record.get("method_name")
    if not method:
        continue
    ok = (record.get("outcome_summary") or {}).get("ok")
    used, failing = methods.get(turn, (set(), set()))
    used.add(method)
    if ok is False:
        failing.add(method)
    methods[turn] = (used, failing)
result = {t: len(f) / len(u) for t, (u, f) in methods.items()}
