from collections import deque

wanted = kwargs.get("tool", "web_search")
last_three = deque(maxlen=3)
successful = filter(
    lambda h: h.get("method_name") == wanted and h.get("outcome_summary", {}).get("ok"),
    conversation_history,
)
for item in successful:
    last_three.append(item["outcome_summary"].get("summary"))
lines = ["- " + str(s) for s in last_three]
result = "\n".join(lines) if lines else "no recent results for " + wanted
