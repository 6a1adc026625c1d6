report = []
for r in conversation_history:
    if not r.get("method_name"):
        continue
    args = r.get("args") or []
    bad = [i for i, a in enumerate(args) if isinstance(a, str) and a.strip() and a != a.strip()]
    if bad:
        report.append(f"{r.get('call_id')} {r['method_name']}: padded string at arg {', '.join(map(str, bad))}")
"\n".join(report) if report else "No call passed a string with leading or trailing whitespace."
