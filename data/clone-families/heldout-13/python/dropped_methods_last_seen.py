history = context["conversation_history"]

last_user_at = -1
last_call = {}
for i, item in enumerate(history):
    if item.get("role") == "user":
        last_user_at = i
    method = item.get("method_name")
    if method:
        last_call[method] = (i, item.get("call_id"))

abandoned = [
    (method, call_id)
    for method, (i, call_id) in sorted(last_call.items())
    if i < last_user_at
]
result = abandoned
