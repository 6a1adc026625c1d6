import re

history = context["conversation_history"]
candidates = re.compile(r"\b[0-9a-f]{7,40}\b")
mentions = {}
for rec in history:
    text = rec.get("content")
    if not isinstance(text, str):
        continue
    shas = [t for t in candidates.findall(text) if re.search(r"\d", t) and re.search(r"[a-f]", t)]
    if shas:
        mentions[rec.get("call_id")] = shas

all_hashes = list(dict.fromkeys(h for hs in mentions.values() for h in hs))
result = {"distinct": all_hashes, "by_record": mentions}
