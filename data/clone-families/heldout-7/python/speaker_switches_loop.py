history = context.get("conversation_history", [])
switches = 0
previous = None
for index, record in enumerate(history):
    speaker = record.get("speaker")
    if index > 0 and speaker != previous:
        switches += 1
    previous = speaker
result = switches
