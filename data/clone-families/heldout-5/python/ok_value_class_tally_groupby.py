import itertools

MAX_NOTE = 40

records = context.get("conversation_history") or []
note = f"scanned {len(records)} records for successful values"[:MAX_NOTE]
classes = sorted(
    r["outcome_summary"]["value_class"]
    for r in records
    if r.get("outcome_summary", {}).get("ok")
)
result = {
    "note": note,
    "total_ok": len(classes),
    "by_class": {k: len(list(g)) for k, g in itertools.groupby(classes)},
}
