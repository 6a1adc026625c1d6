log = context["conversation_history"]
per_method = {}
failures = 0
for entry in log:
    summary = entry["outcome_summary"]
    if summary.get("status") == "ok":
        continue
    failures += 1
    msg = summary.get("error_message") or ""
    name = entry.get("method_name") or ""
    if msg.strip() == "" or name == "":
        continue
    per_method.setdefault(name, {})[msg] = None  # dict keeps insertion order

result = {
    "failures": failures,
    "messages": {name: list(msgs) for name, msgs in per_method.items()},
}
