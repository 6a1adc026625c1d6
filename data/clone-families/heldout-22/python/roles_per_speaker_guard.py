from collections import Counter, defaultdict

by_speaker = defaultdict(Counter)
for record in conversation_history or []:
    if not isinstance(record, dict):
        continue
    role = record.get("role")
    speaker = record.get("speaker")
    if speaker and role:
        by_speaker[speaker][role] += 1
{speaker: dict(roles) for speaker, roles in by_speaker.items()}
