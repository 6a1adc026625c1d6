from datetime import datetime

records = context["conversation_history"]
stamps = [datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) for r in records if r.get("timestamp")]
if len(stamps) >= 2:
    elapsed = (max(stamps) - min(stamps)).total_seconds()
    result = f"History spans {elapsed:.0f} seconds across {len(stamps)} records."
else:
    result = "History spans n/a (fewer than two records)."
