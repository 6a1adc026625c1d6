from itertools import groupby


def collapse_digits(text):
    out = []
    for is_digit, chunk in groupby(text, key=str.isdigit):
        out.append("#" if is_digit else "".join(chunk))
    return "".join(out)


history = context["conversation_history"]
failures = [h for h in history if (h.get("outcome_summary") or {}).get("ok") is False]
messages = ((f.get("outcome_summary") or {}).get("error_message") for f in failures)
shapes = sorted(collapse_digits(msg.strip()) for msg in messages if msg and msg.strip())

result = {
    "distinct": len(set(shapes)),
    "by_template": {shape: len(list(group)) for shape, group in groupby(shapes)},
    "notes": (context.get("memory") or {}).get("notes"),
}
