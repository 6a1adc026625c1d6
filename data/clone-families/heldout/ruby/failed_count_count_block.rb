history = context[:conversation_history] || []
result = history.count { |r| !r[:outcome_summary][:ok] }
