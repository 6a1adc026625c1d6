def has_container(args):
    for value in args or []:
        if isinstance(value, (dict, list)):
            return True
    return False


lines = []
for rec in conversation_history:
    if rec.get("method_name") and has_container(rec.get("args")):
        kinds = sorted({type(v).__name__ for v in rec["args"] if isinstance(v, (dict, list))})
        lines.append(f"- {rec.get('call_id')} {rec['method_name']}() passes a {'/'.join(kinds)} argument")
"\n".join(lines) if lines else "No call passed a list or dict argument."
