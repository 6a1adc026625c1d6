history = context.get("conversation_history", [])
last_user = None
for index, record in enumerate(history):
    if record.get("role") == "user":
        last_user = index

if last_user is None:
    result = []
else:
    before = {r.get("method_name") for r in history[:last_user] if r.get("method_name")}
    after = {r.get("method_name") for r in history[last_user + 1:] if r.get("method_name")}
    result = sorted(before - after)
