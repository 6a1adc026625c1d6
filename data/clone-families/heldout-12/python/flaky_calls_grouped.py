history = context.get("conversation_history") or []

by_method = {}
for item in history:
    method = item.get("method_name")
    result_info = item.get("outcome_summary")
    if method is None or method == "" or not result_info:
        continue
    arguments = repr(item.get("args") or [])
    bucket = by_method.setdefault(method, {}).setdefault(arguments, [])
    bucket.append(result_info.get("ok") is True)

result = {}
for method, per_args in by_method.items():
    mixed = [arguments for arguments, flags in per_args.items() if any(flags) and not all(flags)]
    if mixed:
        result[method] = mixed
