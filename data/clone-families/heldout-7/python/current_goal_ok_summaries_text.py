by_id = {e.get("call_id"): e for e in conversation_history}
here = by_id.get(context.get("call_id"), {})
aim = (here.get("goal") or "").strip()
notes = []
if aim:
    for e in conversation_history:
        out = e.get("outcome_summary", {})
        if out.get("ok") is True and (e.get("goal") or "").strip() == aim:
            notes.append(out.get("summary", ""))

if aim:
    result = f"goal '{aim}': {len(notes)} successful steps\n" + "\n".join(f"- {s}" for s in notes)
else:
    result = "current call has no goal"
