import re


def template_of(message):
    return re.sub(r"\d+", "<num>", message.strip())


counts = {}
for item in conversation_history:
    summary = item.get("outcome_summary")
    if not summary or summary.get("ok") is not False:
        continue
    text = summary.get("error_message")
    if not isinstance(text, str) or not text.strip():
        continue
    shape = template_of(text)
    counts[shape] = counts.get(shape, 0) + 1

lines = [f"{n:>3}x  {shape}" for shape, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
"\n".join(lines) if lines else "no failures with an error message"
