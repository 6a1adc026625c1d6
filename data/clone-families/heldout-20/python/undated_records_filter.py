log = context.get("conversation_history", [])
missing = filter(lambda item: not item.get("timestamp"), log)
result = [
    (item.get("call_id"), item.get("role"))
    for item in missing
]
