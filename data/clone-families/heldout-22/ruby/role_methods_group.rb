history = context.fetch(:conversation_history, nil) || []
methods = history
          .reject { |record| record[:role].to_s.empty? || record[:method_name].to_s.empty? }
          .group_by { |record| record[:role] }
          .transform_values { |records| records.map { |record| record[:method_name] }.uniq.sort }
Agent::Outcome.ok(methods)
