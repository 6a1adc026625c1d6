history = context["conversation_history"]
window = 5
picked = []
for rec in reversed(history):
    if len(picked) == window:
        break
    picked.append(rec["method_name"])
picked.reverse()
result = {"recent_methods": picked, "window": window}
