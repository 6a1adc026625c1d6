history = context.fetch(:conversation_history, nil) || []
history.select { |r| r.dig(:outcome_summary, :ok) == true }
       .map { |r| r[:method_name] }
       .reject { |m| m.to_s.empty? }
       .uniq
