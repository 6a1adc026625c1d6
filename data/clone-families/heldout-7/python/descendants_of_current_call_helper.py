hist = context["conversation_history"]
cur = context["call_id"]
by_id = {h["call_id"]: h for h in hist}


def is_under(rec, ancestor, limit=64):
    hops = 0
    pid = rec.get("parent_call_id")
    while pid and hops < limit:
        if pid == ancestor:
            return True
        parent = by_id.get(pid)
        if parent is None:
            return False
        pid = parent.get("parent_call_id")
        hops += 1
    return False


[h["call_id"] for h in hist if is_under(h, cur)]
