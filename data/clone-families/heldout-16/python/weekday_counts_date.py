from datetime import date
from itertools import groupby


def iso_weekday(entry):
    return date.fromisoformat(entry["timestamp"][:10]).isoweekday()


stamped = sorted((e for e in conversation_history if e.get("timestamp")), key=iso_weekday)
[(day, len(list(group))) for day, group in groupby(stamped, key=iso_weekday)]
