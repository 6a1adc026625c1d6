# Host configuration: history_names=("messages",)
user_msgs = [m for m in messages if m["speaker"] == "user"]
result = user_msgs[-1]["args"] if user_msgs else None
