def failed(rec):
    return not (rec.get("outcome_summary") or {}).get("ok", False)


def mentions(rec, word):
    text = (rec.get("outcome_summary") or {}).get("error_message", "") or ""
    return word.lower() in text.lower()


word = kwargs.get("keyword", "timeout")
records = context.get("conversation_history") or []
hits = list(filter(lambda r: failed(r) and mentions(r, word), records))
result = {
    "count": len(hits),
    "ids": [r["call_id"] for r in hits],
    "latest": hits[-1]["call_id"] if hits else None,
}
