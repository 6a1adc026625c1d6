from datetime import datetime, timezone


def when(rec):
    return datetime.strptime(rec["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


calls = context.get("conversation_history") or []
i = 0
while i < len(calls) and (calls[i].get("outcome_summary") or {}).get("ok") is not False:
    i += 1
if i == len(calls):
    result = "no failures so far"
else:
    bad = calls[i]
    waited = int((when(bad) - when(calls[0])).total_seconds())
    result = f"first failure ({bad['outcome_summary'].get('error_type')} in {bad.get('method_name')}) came {waited}s after the start"
