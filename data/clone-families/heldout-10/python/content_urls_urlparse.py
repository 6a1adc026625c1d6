from itertools import chain
from urllib.parse import urlparse

history = context.get("conversation_history", [])
notes = (context.get("memory") or {}).get("notes", [])

texts = filter(None, (r.get("content") for r in history))
tokens = chain.from_iterable(t.split() for t in texts)
candidates = (tok.rstrip(".,;:!?)") for tok in tokens)
urls = []
for cand in candidates:
    parts = urlparse(cand)
    if parts.scheme in ("http", "https") and parts.netloc and cand not in urls:
        urls.append(cand)
result = {"links": urls, "memory_notes": len(notes)}
