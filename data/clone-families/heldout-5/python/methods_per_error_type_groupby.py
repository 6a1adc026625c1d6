from itertools import groupby

records = context.get("conversation_history") or []
memory = context.get("memory")
notes_seen = len(memory) if memory else 0

pairs = sorted({
    (r["outcome_summary"].get("error_type"), r.get("method_name"))
    for r in records
    if r.get("outcome_summary", {}).get("ok") is False
})
result = {
    "error_types": {k: [m for _, m in g] for k, g in groupby(pairs, key=lambda p: p[0])},
    "memory_items": notes_seen,
}
