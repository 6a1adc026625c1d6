history = Array(context[:conversation_history])
outcomes = history
           .reject { |record| record[:method_name].to_s.empty? }
           .select { |record| [true, false].include?(record.dig(:outcome_summary, :ok)) }
           .group_by { |record| record[:method_name] }
           .transform_values { |records| records.map { |record| record.dig(:outcome_summary, :ok) } }
outcomes
