history = conversation_history or []


def was_retried(idx):
    rec = history[idx]
    if rec["outcome_summary"]["ok"]:
        return False
    return any(later["method_name"] == rec["method_name"] for later in history[idx + 1:])


names = {history[i]["method_name"] for i in range(len(history)) if was_retried(i)}
result = {"retried": sorted(names), "any_retry": bool(names)}
