from collections import Counter

history = context["conversation_history"]


def extension(arg):
    if not isinstance(arg, str) or arg != "".join(arg.split()):
        return None
    base = arg.split("/")[-1]
    stem, dot, ext = base.rpartition(".")
    if not dot or not stem or not ext.isalnum():
        return None
    return ext.lower()


per_call = {}
for h in history:
    if not h.get("method_name"):
        continue
    found = [e for e in map(extension, h.get("args") or []) if e]
    if found:
        per_call[h.get("call_id")] = found

by_extension = Counter(e for exts in per_call.values() for e in exts)
result = {
    "total_files": sum(by_extension.values()),
    "by_extension": dict(by_extension),
    "calls_with_files": list(per_call),
}
