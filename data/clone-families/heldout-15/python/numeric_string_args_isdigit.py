def numeric_text(s):
    t = s.strip()
    if t.startswith("-"):
        t = t[1:]
    return t.replace(".", "", 1).isdigit() and not t.startswith(".") and not t.endswith(".")


hits = {}
for msg in context["conversation_history"]:
    name = msg.get("method_name") or ""
    args = msg.get("args")
    if not name or not isinstance(args, list):
        continue
    quoted = [a for a in args if type(a) is str and numeric_text(a)]
    if quoted:
        hits[msg.get("call_id")] = quoted

result = hits
