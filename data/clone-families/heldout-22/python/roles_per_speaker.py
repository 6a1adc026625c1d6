from collections import Counter, defaultdict

by_speaker = defaultdict(Counter)
for record in conversation_history:
    speaker, role = record.get("speaker"), record.get("role")
    if speaker and role:
        by_speaker[speaker][role] += 1
{speaker: dict(roles) for speaker, roles in by_speaker.items()}
