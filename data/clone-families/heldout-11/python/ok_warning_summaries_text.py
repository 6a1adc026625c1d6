import re

history = context.get("conversation_history", [])
hits = []
for rec in history:
    out = rec.get("outcome_summary") or {}
    if out.get("ok") is not True:
        continue
    note = out.get("summary")
    if note and re.search(r"(?i)(warn|partial|truncat)", note):
        hits.append(f"- {rec['call_id']} ({rec.get('method_name') or rec.get('role')}): {note}")
"Succeeded with caveats:\n" + "\n".join(hits) if hits else "No successful call reported a caveat."
