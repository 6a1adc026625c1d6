def fmt(record):
    return "{ts} {who}: {what}".format(ts=record["timestamp"], who=record["speaker"], what=record["method_name"])


result = "\n".join(map(fmt, context["conversation_history"]))
