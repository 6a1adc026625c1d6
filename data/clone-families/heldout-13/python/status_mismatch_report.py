history = context.get("conversation_history") or []

ok_but_not_ok_status = []
failed_but_status_ok = []
checked = 0
for item in history:
    o = item.get("outcome_summary") or {}
    if "ok" not in o or not o.get("status"):
        continue
    checked += 1
    if o["ok"] is True and o["status"] != "ok":
        ok_but_not_ok_status.append(item.get("call_id"))
    if o["ok"] is False and o["status"] == "ok":
        failed_but_status_ok.append(item.get("call_id"))

result = {
    "checked": checked,
    "ok_but_not_ok_status": ok_but_not_ok_status,
    "failed_but_status_ok": failed_but_status_ok,
    "total": len(ok_but_not_ok_status) + len(failed_but_status_ok),
}
