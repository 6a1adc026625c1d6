history = context.get("conversation_history", [])
speakers = []
for index, record in enumerate(history):
    speaker = record.get("speaker")
    if speaker not in speakers:
        speakers.append(speaker)
result = len(speakers)
