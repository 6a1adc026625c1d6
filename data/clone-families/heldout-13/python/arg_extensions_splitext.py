import os.path

counts = {}
for entry in conversation_history:
    if not entry.get("method_name"):
        continue
    for value in entry.get("args") or []:
        if not isinstance(value, str) or len(value.split()) != 1 or value.split()[0] != value:
            continue
        _, ext = os.path.splitext(os.path.basename(value))
        ext = ext[1:].lower()
        if ext and ext.isalnum():
            counts[ext] = counts.get(ext, 0) + 1

"\n".join(f".{ext}: {n}" for ext, n in sorted(counts.items())) or "no file-like arguments"
