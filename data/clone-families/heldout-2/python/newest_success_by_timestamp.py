def succeeded(entry):
    status = entry.get("outcome_summary")
    return bool(status and status.get("ok"))


name = args[0] if args else "search_web"
matching = list(filter(lambda e: e.get("method_name") == name and succeeded(e), conversation_history))
if not matching:
    result = f"No successful {name} call found."
else:
    latest = max(matching, key=lambda e: e.get("timestamp"))
    result = latest["outcome_summary"].get("summary")
