import calendar
import time


def epoch(stamp):
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


failures = [i for i, r in enumerate(conversation_history) if (r.get("outcome_summary") or {}).get("status") != "ok"]
if failures:
    idx = failures[0]
    result = {
        "first_failure": conversation_history[idx]["call_id"],
        "seconds": epoch(conversation_history[idx]["timestamp"]) - epoch(conversation_history[0]["timestamp"]),
        "records_before": idx,
    }
else:
    result = {"first_failure": None, "seconds": None, "records_before": len(conversation_history)}
