items = context["conversation_history"]
best_i = -1
i = 0
while i < len(items):
    if best_i < 0 or items[i]["depth"] > items[best_i]["depth"]:
        best_i = i
    i += 1

result = {"deepest": items[best_i]["call_id"]} if best_i >= 0 else {}
