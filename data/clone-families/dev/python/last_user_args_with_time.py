LIMIT = 5

turns = context["conversation_history"]
from_user = [t for t in turns if t["speaker"] == "user"]
window = from_user[-LIMIT:]
result = [{"args": t["args"], "at": t["timestamp"]} for t in window]
