def keys_of(entries, wanted):
    found = []
    for entry in entries:
        status = entry.get("outcome_summary") or {}
        if status.get("ok") is wanted:
            for name in entry.get("kwargs") or {}:
                if name not in found:
                    found.append(name)
    return found


good = keys_of(conversation_history, True)
bad = keys_of(conversation_history, False)
only_bad = [name for name in bad if name not in good]
"options only ever used on failing calls: " + (", ".join(sorted(only_bad)) if only_bad else "none")
