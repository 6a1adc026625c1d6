history = context["conversation_history"]
speakers = []
for record in history:
    speaker = record["speaker"]
    if speaker not in speakers:
        speakers.append(speaker)
result = speakers
