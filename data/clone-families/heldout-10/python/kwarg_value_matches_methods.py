_missing = object()
option = kwargs.get("key") or "lang"
expected = kwargs.get("value")

found = []
for step in conversation_history:
    opts = step.get("kwargs")
    if not opts:
        continue
    if opts.get(option, _missing) == expected:
        found.append((step["call_id"], step.get("method_name")))
result = found
