history = conversation_history or []
bad = [e for e in history if not e.get("outcome_summary", {}).get("ok", True)]


def kind_of(e):
    return e["outcome_summary"].get("error_type") or "unknown"


types = sorted({kind_of(e) for e in bad})
result = [
    {
        "error_type": t,
        "call_ids": [e["call_id"] for e in bad if kind_of(e) == t],
        "count": sum(1 for e in bad if kind_of(e) == t),
    }
    for t in types
]
