from itertools import groupby

texts = [
    (m["role"], len(m["content"]))
    for m in conversation_history
    if isinstance(m.get("role"), str) and m["role"] and isinstance(m.get("content"), str)
]
report = []
for role, group in groupby(sorted(texts), key=lambda t: t[0]):
    sizes = [n for _, n in group]
    report.append(f"{role}: {sum(sizes) / len(sizes):.1f} chars on average over {len(sizes)} messages")
"\n".join(report) or "No textual content in the history."
