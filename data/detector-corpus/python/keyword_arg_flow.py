def tail(*, records, n):
    return records[-n:]


result = tail(records=context["conversation_history"], n=3)
