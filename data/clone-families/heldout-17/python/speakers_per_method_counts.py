records = context.get("conversation_history") or []
table = {}
for rec in records:
    method, speaker = rec.get("method_name"), rec.get("speaker")
    if method and speaker:
        table.setdefault(method, [])
        if speaker not in table[method]:
            table[method].append(speaker)
result = [
    {"method": method, "speakers": names, "n_speakers": len(names)}
    for method, names in sorted(table.items(), key=lambda kv: (-len(kv[1]), kv[0]))
]
