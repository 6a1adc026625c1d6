import re

found = []
for entry in conversation_history:
    s = entry.get("outcome_summary") or {}
    if s.get("ok") is False and isinstance(s.get("error_message"), str):
        for file_name, line_no in re.findall(r"([\w./-]+\.(?:py|rb|js|ts)):(\d+)", s["error_message"]):
            spot = file_name + ":" + line_no
            if spot not in found:
                found.append(spot)

("Failures point at: " + ", ".join(found)) if found else "No source locations in failure messages."
