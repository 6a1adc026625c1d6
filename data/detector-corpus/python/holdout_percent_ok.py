h = context.get("conversation_history") or []
ok = len([r for r in h if r.get("outcome_summary", {}).get("ok")])
result = round(100 * ok / len(h), 1) if h else None
