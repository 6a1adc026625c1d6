def none_keys(record):
    return sorted(key for key, value in (record.get("kwargs") or {}).items() if value is None)

hits = [(r["call_id"], none_keys(r)) for r in conversation_history if none_keys(r)]
if hits:
    result = "\n".join(f"{cid}: {', '.join(keys)} passed as None" for cid, keys in hits)
else:
    result = "no call passed None for a keyword argument"
