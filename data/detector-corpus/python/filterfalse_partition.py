from itertools import filterfalse


def is_ok(rec):
    return bool(rec["outcome_summary"].get("ok"))


h = context["conversation_history"]
good = list(filter(is_ok, h))
bad = list(filterfalse(is_ok, h))
result = {"good": len(good), "bad": len(bad)}
