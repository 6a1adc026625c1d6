import re
from collections import Counter

pat = re.compile(r"\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b")
tally = Counter()
for r in conversation_history:
    o = r.get("outcome_summary") or {}
    if o.get("ok") is False:
        text = o.get("error_message")
        if isinstance(text, str):
            tally.update({m.group(0) for m in pat.finditer(text) if all(int(x) < 256 for x in m.groups())})
"\n".join(f"{ip}: in {n} failure(s)" for ip, n in tally.most_common()) or "No IPv4 address in any error message."
