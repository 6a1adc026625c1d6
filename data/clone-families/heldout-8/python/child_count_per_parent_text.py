from itertools import groupby

hist = context.get("conversation_history") or []
with_parent = sorted((h["parent_call_id"] for h in hist if h.get("parent_call_id")), key=str)
lines = []
for pid, grp in groupby(with_parent):
    lines.append(f"parent {pid} has {len(list(grp))} child call(s)")
lines.append(f"{len(with_parent)} of {len(hist)} records have a parent")

"\n".join(lines)
