flipped = []
last_ok = {}
for record in conversation_history:
    method = record.get("method_name")
    ok = (record.get("outcome_summary") or {}).get("ok")
    if not method or not isinstance(ok, bool):
        continue
    if method in last_ok and ok != last_ok[method]:
        flipped.append(record.get("call_id"))
    last_ok[method] = ok
flipped
