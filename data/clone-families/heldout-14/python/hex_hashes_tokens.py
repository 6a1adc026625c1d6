import re

HEX = set("0123456789abcdef")


def hashes_in(text):
    for token in re.split(r"\W+", text):
        if 7 <= len(token) <= 40 and set(token) <= HEX and not token.isdigit() and not token.isalpha():
            yield token


seen = {}
for msg in conversation_history:
    for h in hashes_in(msg.get("content") or ""):
        seen.setdefault(h, msg.get("call_id"))

"\n".join(f"{h} (first in {cid})" for h, cid in seen.items()) if seen else "no commit hashes mentioned"
