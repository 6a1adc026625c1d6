def orphan_lines(entries):
    ids = set(entry.get("call_id") for entry in entries)
    lines = []
    for entry in entries:
        parent_id = entry.get("parent_call_id") or ""
        if not parent_id:
            continue
        if parent_id in ids:
            continue
        lines.append(f"call {entry.get('call_id')} points at missing parent {parent_id}")
    return lines


found = orphan_lines(conversation_history)
"\n".join(found) if found else "all parent links resolve"
