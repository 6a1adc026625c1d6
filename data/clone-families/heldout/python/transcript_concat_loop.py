history = context.get("conversation_history", [])
out = ""
for rec in history:
    out += "[" + str(rec["timestamp"]) + "] " + str(rec["speaker"]) + ": " + str(rec["method_name"]) + "\n"
result = out.rstrip("\n")
