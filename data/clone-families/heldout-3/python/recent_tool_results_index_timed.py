import time

started = time.time()
tool_name = kwargs.get("tool", "web_search")
n = len(conversation_history)
collected = []
i = n - 1
while i >= 0 and len(collected) < 3:
    entry = conversation_history[i]
    status = entry.get("outcome_summary", {})
    if entry.get("method_name") == tool_name and status.get("ok"):
        collected.insert(0, (entry.get("call_id"), status.get("summary")))
    i -= 1
result = {"results": collected, "elapsed_ms": round((time.time() - started) * 1000, 3)}
