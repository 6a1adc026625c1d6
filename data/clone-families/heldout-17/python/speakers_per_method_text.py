history = context["conversation_history"]
pairs = {(h.get("method_name"), h.get("speaker")) for h in history}
methods = sorted({m for m, s in pairs if m and s})
lines = []
for m in methods:
    names = sorted(s for mm, s in pairs if mm == m and s)
    lines.append(f"{m}: called by {', '.join(names)}")
result = "\n".join(lines) if lines else "No method calls with a known speaker."
