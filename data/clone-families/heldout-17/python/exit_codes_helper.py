import re
from collections import defaultdict


def exit_codes(message):
    """Distinct exit codes quoted in one error message."""
    if not isinstance(message, str):
        return set()
    found = re.findall(r"exit (?:code|status)\s*[:=]?\s*(-?\d+)", message, re.IGNORECASE)
    return {int(x) for x in found}


counts = defaultdict(int)
for entry in context.get("conversation_history") or []:
    summary = entry.get("outcome_summary")
    if isinstance(summary, dict) and summary.get("ok") is False:
        for code in exit_codes(summary.get("error_message")):
            counts[code] += 1

result = {
    "by_exit_code": dict(sorted(counts.items())),
    "nonzero_codes": sorted(c for c in counts if c != 0),
}
