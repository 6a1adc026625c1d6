history = context[:conversation_history] || []
all = history.map { |r| r[:method_name] }.compact.reject(&:empty?).uniq
failed = history.reject { |r| r.dig(:outcome_summary, :ok) }.map { |r| r[:method_name] }
(all - failed).sort
