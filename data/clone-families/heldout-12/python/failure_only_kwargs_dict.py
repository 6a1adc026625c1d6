history = context.get("conversation_history") or []
usage = {}
for item in history:
    info = item.get("outcome_summary") or {}
    if "ok" not in info:
        continue
    for key in item.get("kwargs") or {}:
        usage.setdefault(key, {"ok": False, "failed": False})
        usage[key]["ok" if info["ok"] else "failed"] = True

result = {
    "failure_only": sorted(k for k, u in usage.items() if u["failed"] and not u["ok"]),
    "keys_seen": len(usage),
}
