flips = {}
last_ok = {}
for record in conversation_history:
    method = record.get("method_name")
    ok = (record.get("outcome_summary") or {}).get("ok")
    if not method or not isinstance(ok, bool):
        continue
    if method in last_ok:
        flips[method] = flips.get(method, 0) + (ok != last_ok[method])
    last_ok[method] = ok
flips
