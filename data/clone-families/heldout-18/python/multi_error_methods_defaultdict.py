from collections import defaultdict

errors = defaultdict(set)
for call in context["conversation_history"]:
    info = call.get("outcome_summary") or {}
    if call.get("method_name") and info.get("ok") is False and info.get("error_type"):
        errors[call["method_name"]].add(info["error_type"])

result = sorted(
    ({"method": name, "distinct_error_types": len(kinds)} for name, kinds in errors.items() if len(kinds) > 1),
    key=lambda row: (-row["distinct_error_types"], row["method"]),
)
