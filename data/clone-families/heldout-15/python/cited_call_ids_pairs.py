import re

history = context["conversation_history"]
index = {h["call_id"]: pos for pos, h in enumerate(history) if h.get("call_id")}
edges = []
for pos, h in enumerate(history):
    body = h.get("content")
    if type(body) is not str:
        continue
    for token in dict.fromkeys(re.findall(r"\bcall_[0-9a-f]{6}\b", body)):
        if token in index and token != h.get("call_id"):
            edges.append((h.get("call_id"), token, "back" if index[token] < pos else "forward"))
result = edges
