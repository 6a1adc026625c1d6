from collections import defaultdict

hist = context.get("conversation_history", [])
arg_sets = defaultdict(set)
first_call = {}
for item in hist:
    meth = item.get("method_name")
    if meth is None or meth == "":
        continue
    args = item.get("args")
    if not isinstance(args, list):
        args = []
    arg_sets[meth].add(str(args))
    first_call.setdefault(meth, item.get("call_id"))

result = [
    {"method": meth, "distinct_arg_lists": len(arg_sets[meth]), "first_call_id": first_call[meth]}
    for meth in arg_sets
]
