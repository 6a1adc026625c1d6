method = kwargs["method"]
msg = None
when = None
for rec in reversed(context["conversation_history"]):
    if rec["method_name"] == method and rec["outcome_summary"]["status"] == "error":
        msg = rec["outcome_summary"]["error_message"]
        when = rec["timestamp"]
        break

if msg is not None:
    result = f"{method}: last error at {when}: {msg}"
else:
    result = f"{method}: no recorded error"
