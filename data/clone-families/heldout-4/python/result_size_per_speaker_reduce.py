from functools import reduce

PREVIEW = 40


def fold(acc, rec):
    total, n = acc.get(rec["speaker"], (0, 0))
    acc[rec["speaker"]] = (total + len(rec.get("result") or ""), n + 1)
    return acc


records = context.get("conversation_history") or []
stats = reduce(fold, records, {})
preview = (records[-1].get("content") or "")[:PREVIEW] if records else ""
result = {
    "avg_result_chars": {k: round(t / n, 2) for k, (t, n) in stats.items()},
    "records": len(records),
    "last_content_preview": preview,
}
