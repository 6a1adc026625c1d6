hist = context["conversation_history"]
m = kwargs.get("method", "")
i = len(hist) - 1
found = None
while i >= 0:
    r = hist[i]
    o = r.get("outcome_summary", {})
    if r.get("method_name") == m and o.get("status") != "ok":
        found = o.get("error_message")
        break
    i -= 1
result = found
