history = context[:conversation_history] || []
failed = history.select { |r| !r[:outcome_summary][:ok] }
result = failed.map { |r| "#{r[:timestamp]} #{r[:method_name]}: #{r[:outcome_summary][:error_type]}" }.join("\n")
