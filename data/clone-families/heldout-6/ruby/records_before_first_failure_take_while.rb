records = context[:conversation_history] || []
clean = records.take_while { |rec| rec.dig(:outcome_summary, :status) == "ok" }
failure = records[clean.size]
{ before_first_failure: clean.size, failed_call: failure && failure[:call_id] }
