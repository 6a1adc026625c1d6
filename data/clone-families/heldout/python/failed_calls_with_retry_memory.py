memory = context.get("memory", {})
attempt = memory.get("attempt", 0) + 1
max_attempts = int(memory.get("max_attempts", 3))

history = context["conversation_history"]
failures = []
if history:
    for entry in history:
        outcome = entry["outcome_summary"]
        if outcome["ok"] is False:
            failures.append({"call_id": entry["call_id"], "method": entry["method_name"], "error": outcome["error_type"]})

result = {"attempt": attempt, "give_up": attempt >= max_attempts, "failures": failures}
