import re
from collections import defaultdict

lines_by_file = defaultdict(set)
for rec in context.get("conversation_history") or []:
    summary = rec.get("outcome_summary")
    if not summary or summary.get("ok") is not False:
        continue
    message = summary.get("error_message")
    if not message:
        continue
    for m in re.finditer(r"([\w./-]+\.(py|rb|js|ts)):(\d+)", message):
        lines_by_file[m.group(1)].add(int(m.group(3)))

result = {path: sorted(lines) for path, lines in sorted(lines_by_file.items())}
