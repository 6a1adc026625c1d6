def freeze(value):
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


records = context["conversation_history"]
passed, failed = set(), set()
for rec in records:
    outcome = rec.get("outcome_summary")
    name = rec.get("method_name")
    if not outcome or not name:
        continue
    signature = (name, freeze(rec.get("args") or []))
    if outcome.get("ok") is True:
        passed.add(signature)
    elif outcome.get("ok") is False:
        failed.add(signature)

flaky = passed & failed
result = sorted(flaky, key=repr)
