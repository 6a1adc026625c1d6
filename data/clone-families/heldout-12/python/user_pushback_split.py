import string

corrections = ("no", "nope", "actually", "wrong", "stop")


def first_word(text):
    words = text.split()
    if not words:
        return ""
    return words[0].strip(string.punctuation.replace("'", "")).lower()


result = [
    {"call_id": rec["call_id"], "said": rec.get("content")}
    for rec in context["conversation_history"]
    if rec.get("role") == "user" and first_word(rec.get("content") or "") in corrections
]
