groups = {}
order = []
for entry in conversation_history:
    res = entry.get("outcome_summary")
    if not res or not res.get("ok"):
        continue
    s = res.get("summary")
    if not isinstance(s, str) or s == "":
        continue
    if s not in groups:
        groups[s] = []
        order.append(s)
    groups[s].append(entry.get("call_id"))

lines = []
for s in order:
    first, *again = groups[s]
    if again:
        lines.append(f"{s!r} returned again by {', '.join(again)} (first {first})")
"\n".join(lines) if lines else "no successful result was repeated"
