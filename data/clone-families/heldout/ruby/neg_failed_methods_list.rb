history = context[:conversation_history] || []
result = history.select { |r| !r[:outcome_summary][:ok] }.map { |r| r[:method_name] }
