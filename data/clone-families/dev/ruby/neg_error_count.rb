history = context[:conversation_history] || []
failed = history.count { |r| !r[:outcome_summary][:ok] }
result = "Errors: #{failed}"
