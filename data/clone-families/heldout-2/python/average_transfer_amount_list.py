amounts = []
for rec in conversation_history:
    if rec.get("method_name") == "transfer_funds":
        a = rec.get("args") or []
        if a and isinstance(a[0], (int, float)):
            amounts.append(a[0])
result = sum(amounts) / len(amounts) if amounts else None
