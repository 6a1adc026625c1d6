sequences = {}
for record in conversation_history:
    method = record.get("method_name")
    ok = (record.get("outcome_summary") or {}).get("ok")
    if method and isinstance(ok, bool):
        sequences.setdefault(method, []).append(ok)
{method: sum(a != b for a, b in zip(seq, seq[1:])) for method, seq in sequences.items() if len(seq) > 1}
