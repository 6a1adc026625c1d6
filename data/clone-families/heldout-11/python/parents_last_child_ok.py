history = context.get("conversation_history", [])
known = {record.get("call_id") for record in history}

last_child_ok = {}
for record in history:
    parent = record.get("parent_call_id")
    if not parent or parent not in known:
        continue
    ok = (record.get("outcome_summary") or {}).get("ok") is True
    last_child_ok[parent] = ok

result = [record["call_id"] for record in history if last_child_ok.get(record.get("call_id")) is True]
