history = context[:conversation_history] || []
last_fail = history.reverse.find { |r| r[:outcome_summary] && r[:outcome_summary][:ok] == false }
result = last_fail ? last_fail[:outcome_summary][:error_message] : nil
