def signature(entry):
    return f"{entry['method_name']}{entry.get('args') or []!r}"


wasteful = {}
for entry in conversation_history:
    parent_id = entry.get("parent_call_id")
    if parent_id in (None, "") or not entry.get("method_name"):
        continue
    wasteful.setdefault(parent_id, []).append(signature(entry))

lines = []
for parent_id, sigs in wasteful.items():
    dupes = [s for s in dict.fromkeys(sigs) if sigs.count(s) >= 2]
    if dupes:
        lines.append(f"{parent_id} issued the same child call twice: {'; '.join(dupes)}")
"\n".join(lines) if lines else "no parent repeated a child call"
