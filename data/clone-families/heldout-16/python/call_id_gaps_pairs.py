def trailing_number(call_id):
    if not isinstance(call_id, str):
        return None
    digits = call_id[len(call_id.rstrip("0123456789")):]
    return int(digits) if digits else None


history = context["conversation_history"]
present = sorted({n for n in (trailing_number(h.get("call_id")) for h in history) if n is not None})
missing = []
for previous, current in zip(present, present[1:]):
    missing.extend(range(previous + 1, current))
result = missing
