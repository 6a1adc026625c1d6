import re


def mentions(rec, word):
    return re.search(rf"\b{re.escape(word)}\b", str(rec.get("args", ""))) is not None


hist = context["conversation_history"]
result = [r["call_id"] for r in hist if mentions(r, kwargs["word"])]
