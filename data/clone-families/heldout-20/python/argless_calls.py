from collections import Counter

history = context["conversation_history"]
argless = Counter()
for record in history:
    method = record.get("method_name")
    if method and not record.get("args"):
        argless[method] += 1
result = dict(argless)
