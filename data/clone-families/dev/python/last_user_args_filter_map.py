# Step 4: Implement
window_size = 5
conversation = context.get("conversation_history", [])
users = list(filter(lambda item: item["speaker"] == "user", conversation))
tail = users[-window_size:] if users else []
result = list(map(lambda item: item["args"], tail))
