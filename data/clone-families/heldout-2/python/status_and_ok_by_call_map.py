def status_pair(record):
    oc = record["outcome_summary"]
    return record["call_id"], {"status": oc.get("status"), "ok": oc.get("ok")}


with_outcome = filter(lambda r: isinstance(r.get("outcome_summary"), dict), conversation_history)
result = dict(map(status_pair, with_outcome))
