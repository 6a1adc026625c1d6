result = (context[:conversation_history] || [])
  .filter { |h| h[:speaker] == "tool" }
  .reject { |h| h[:outcome_summary][:ok] }
  .map { |h| { call_id: h[:call_id], method: h[:method_name] } }
