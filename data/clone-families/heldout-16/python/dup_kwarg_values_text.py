def shared_value_keys(kwargs):
    by_value = {}
    for key, value in kwargs.items():
        if isinstance(value, str) and value:
            by_value.setdefault(value, []).append(key)
    return [keys for keys in by_value.values() if len(keys) > 1]


lines = []
for r in conversation_history:
    if r.get("method_name") and isinstance(r.get("kwargs"), dict):
        groups = shared_value_keys(r["kwargs"])
        if groups:
            lines.append(f"{r.get('call_id')} ({r['method_name']}): " + "; ".join("=".join(g) for g in groups))
"\n".join(lines) if lines else "No call passed the same string to two keyword arguments."
