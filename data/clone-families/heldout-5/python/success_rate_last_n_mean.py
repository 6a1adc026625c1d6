import statistics

k = kwargs.get("n", 10)
tail = (conversation_history or [])[-k:]
flags = [1 if h.get("outcome_summary", {}).get("ok") is True else 0 for h in tail]
result = statistics.mean(flags) if flags else None
