import statistics

vals = [
    h["args"][0]
    for h in conversation_history
    if h.get("method_name") == "transfer_funds" and h.get("args") and isinstance(h["args"][0], (int, float))
]
result = round(statistics.mean(vals), 2) if vals else None
