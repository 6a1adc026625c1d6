history = context.get("conversation_history", [])
known = {record.get("call_id") for record in history}

children_ok = {}
for record in history:
    parent = record.get("parent_call_id")
    if not parent or parent not in known:
        continue
    ok = (record.get("outcome_summary") or {}).get("ok") is True
    children_ok[parent] = children_ok.get(parent, True) and ok

result = [record["call_id"] for record in history if children_ok.get(record.get("call_id")) is True]
