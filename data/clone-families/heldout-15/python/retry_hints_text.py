import re


def wait_hint(message):
    low = (message or "").lower()
    for marker in ("retry after", "retry-after"):
        at = low.find(marker)
        if at >= 0:
            m = re.match(r":?\s*(\d+)", low[at + len(marker):])
            if m:
                return int(m.group(1))
    return None


notes = []
for step in conversation_history:
    out = step.get("outcome_summary") or {}
    if out.get("ok") is False:
        secs = wait_hint(out.get("error_message"))
        if secs is not None:
            notes.append(f"{step.get('call_id')} ({step.get('method_name') or '?'}): server asked to wait {secs}s")

"\n".join(notes) or "No failure carried a retry-after hint."
