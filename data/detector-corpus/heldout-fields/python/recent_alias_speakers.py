h = context["conversation_history"]
recent = h[-8:]
speakers = set()
for r in recent:
    speakers.add(r.get("speaker"))
result = sorted(s for s in speakers if s)
