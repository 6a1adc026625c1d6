history = context[:conversation_history] || []
tool_errors = history.select { |r| r[:speaker] == "tool" && r[:outcome_summary][:status] == "error" }
result = tool_errors.map { |r| r[:call_id] }
