notes = []
for entry in conversation_history:
    summary = entry.get("outcome_summary")
    if not summary:
        continue
    flag, label = summary.get("ok"), summary.get("status")
    if flag is None or not label:
        continue
    if flag is True and label != "ok":
        notes.append(f"{entry.get('call_id')}: ok=True but status {label!r}")
    elif flag is False and label == "ok":
        notes.append(f"{entry.get('call_id')}: ok=False but status 'ok'")

"\n".join(notes) or "every outcome status agrees with its ok flag"
