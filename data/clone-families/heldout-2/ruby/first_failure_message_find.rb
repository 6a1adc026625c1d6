history = context[:conversation_history] || []
first_fail = history.find { |r| r[:outcome_summary] && r[:outcome_summary][:ok] == false }
result = first_fail ? first_fail[:outcome_summary][:error_message] : nil
