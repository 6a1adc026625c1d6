def count_by_method(records):
    out = {}
    for rec in records:
        key = rec.get("method_name")
        if not key:
            continue
        if key in out:
            out[key] += 1
        else:
            out[key] = 1
    return out


if not conversation_history:
    result = "No calls yet."
else:
    c = count_by_method(conversation_history)
    result = ", ".join(f"{k}={v}" for k, v in sorted(c.items()))
