hist = context.get("conversation_history", [])
asked = []
for record in hist:
    if record["speaker"] != "user":
        continue
    asked.append(record["args"])
result = asked[-5:]
