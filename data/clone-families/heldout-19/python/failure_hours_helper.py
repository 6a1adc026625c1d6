from datetime import datetime, timezone


def utc_hour(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(timezone.utc).hour


def outcome_of(record):
    ok = (record.get("outcome_summary") or {}).get("ok")
    return ok if ok in (True, False) else None


history = context.get("conversation_history", [])
tallies = {}
for entry in history:
    ok = outcome_of(entry)
    if ok is None or not entry.get("timestamp"):
        continue
    hour = utc_hour(entry["timestamp"])
    good, bad = tallies.get(hour, (0, 0))
    tallies[hour] = (good + ok, bad + (not ok))
{hour: f"{bad / (good + bad):.0%}" for hour, (good, bad) in sorted(tallies.items())}
