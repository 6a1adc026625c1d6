import re

history = context["conversation_history"]
pattern = re.compile(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB|B)\b", re.IGNORECASE)
power = {"B": 0, "KB": 1, "MB": 2, "GB": 3}


def kib(number, unit):
    return round(float(number) * 1024 ** power[unit.upper()] / 1024, 3)


sizes_kib = {}
for entry in history:
    summary_info = entry.get("outcome_summary") or {}
    if summary_info.get("ok") is True and isinstance(summary_info.get("summary"), str):
        values = [kib(n, u) for n, u in pattern.findall(summary_info["summary"])]
        if values:
            sizes_kib[entry.get("call_id")] = values
result = {"unit": "KiB", "sizes": sizes_kib}
