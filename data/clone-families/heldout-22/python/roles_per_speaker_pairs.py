from collections import Counter

pairs = Counter(
    (record.get("speaker"), record.get("role"))
    for record in conversation_history
    if record.get("speaker") and record.get("role")
)
by_speaker = {}
for (speaker, role), count in pairs.items():
    by_speaker.setdefault(speaker, {})[role] = count
{speaker: dict(roles) for speaker, roles in by_speaker.items()}
