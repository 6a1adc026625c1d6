from collections import defaultdict


def string_args(rec):
    return [a for a in (rec.get("args") or []) if isinstance(a, str)]


forms = defaultdict(lambda: defaultdict(set))
for msg in conversation_history:
    name = msg.get("method_name") or ""
    if name:
        for s in string_args(msg):
            forms[name][s.lower()].add(s)

lines = []
for name in sorted(forms):
    for key, spelled in sorted(forms[name].items()):
        if len(spelled) >= 2:
            lines.append(f"{name}: " + " / ".join(sorted(spelled)))
"\n".join(lines) if lines else "No inconsistent casing in string arguments."
