calls = [entry.get("method_name") for entry in conversation_history]
calls = [c for c in calls if c]
longest = (None, 0)
i = 0
while i < len(calls):
    j = i + 1
    while j < len(calls) and calls[j] == calls[i]:
        j += 1
    if j - i > longest[1]:
        longest = (calls[i], j - i)
    i = j
result = (longest[0], longest[1], len(calls))
