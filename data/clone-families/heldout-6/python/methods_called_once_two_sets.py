seen, repeated = set(), set()
for entry in conversation_history:
    m = entry.get("method_name")
    if m is None:
        continue
    if m in seen:
        repeated.add(m)
    seen.add(m)

once = seen - repeated
result = ", ".join(sorted(once)) if once else "every method was called more than once"
