import re

history = context.get("conversation_history") or []
first_seen_in = {}
for rec in history:
    for token in re.split(r"\s+", rec.get("content") or ""):
        if not re.match(r"https?://", token):
            continue
        url = token.rstrip(".,;:!?)'\"")
        first_seen_in.setdefault(url, rec["call_id"])
first_seen_in
