records = context["conversation_history"]
failed_at = next(
    (i for i, r in enumerate(records) if (r.get("outcome_summary") or {}).get("ok") is False),
    len(records),
)
before = {r.get("method_name") for r in records[: failed_at + 1]}
after = [r.get("method_name") for r in records[failed_at + 1:] if r.get("method_name")]
result = list(dict.fromkeys(m for m in after if m not in before))
