calls = context["conversation_history"]
best = 0
i = 0
while i < len(calls):
    if calls[i].get("outcome_summary", {}).get("ok"):
        i += 1
        continue
    j = i
    while j < len(calls) and not calls[j].get("outcome_summary", {}).get("ok"):
        j += 1
    if j - i > best:
        best = j - i
    i = j

result = f"Longest run of consecutive failures: {best}"
