import json

log = context["conversation_history"]
signatures = {}
for entry in log:
    method = entry.get("method_name") or ""
    if method == "":
        continue
    key = json.dumps(entry.get("args") or [])
    bucket = signatures.setdefault(method, [])
    if key not in bucket:
        bucket.append(key)

result = {
    "distinct_args": {m: len(keys) for m, keys in sorted(signatures.items())},
    "methods": len(signatures),
}
