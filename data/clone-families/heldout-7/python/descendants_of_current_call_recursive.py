me = context["call_id"]
kids_by_parent = {}
for entry in conversation_history:
    pid = entry.get("parent_call_id")
    if pid:
        kids_by_parent.setdefault(pid, []).append(entry.get("call_id"))


def collect(node, acc):
    for kid in kids_by_parent.get(node, ()):
        if kid not in acc:
            acc.add(kid)
            collect(kid, acc)
    return acc


subtree = collect(me, set())
position = {entry.get("call_id"): i for i, entry in enumerate(conversation_history)}
ordered = sorted(subtree, key=lambda c: position[c])
if ordered:
    result = f"{len(ordered)} calls below {me}: " + ", ".join(ordered)
else:
    result = f"no calls below {me}"
