import re
from collections import defaultdict

NUMBER = re.compile(r"\d+")


def normalise(msg):
    return NUMBER.sub("#", msg).strip()


log = context.get("conversation_history", [])
count = defaultdict(int)
last_seen = {}
for entry in log:
    info = entry.get("outcome_summary")
    if not isinstance(info, dict) or info.get("ok") is not False:
        continue
    raw = info.get("error_message")
    if raw is None or raw.strip() == "":
        continue
    shape = normalise(raw)
    count[shape] += 1
    last_seen[shape] = entry.get("call_id")

rows = sorted(count, key=lambda s: count[s], reverse=True)
result = [(shape, count[shape], last_seen[shape]) for shape in rows]
