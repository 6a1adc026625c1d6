from itertools import pairwise

tool_calls = sum(1 for r in conversation_history if r.get("method_name"))
n = sum(
    1
    for a, b in pairwise(conversation_history)
    if b.get("method_name") is not None
    and b.get("method_name") != ""
    and a.get("method_name") == b.get("method_name")
    and a["outcome_summary"].get("ok") is False
)
result = f"{n} immediate retries out of {tool_calls} tool calls"
