currency = kwargs.get("currency", "USD")


def first_number(record):
    positional = record.get("args") or []
    if positional and isinstance(positional[0], (int, float)):
        return positional[0]
    return None


transfers = filter(lambda r: r.get("method_name") == "transfer_funds", conversation_history)
numbers = [x for x in map(first_number, transfers) if x is not None]
if numbers:
    result = f"Average transfer: {sum(numbers) / len(numbers):.2f} {currency}"
else:
    result = "No transfers recorded."
