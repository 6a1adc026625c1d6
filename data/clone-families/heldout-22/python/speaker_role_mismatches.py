mismatched = []
for record in conversation_history:
    speaker, role = record.get("speaker"), record.get("role")
    if speaker and role and speaker != role:
        mismatched.append(record.get("call_id"))
mismatched
