history = context[:conversation_history] || []
ok_calls = history.select { |r| r.dig(:outcome_summary, :ok) }
result = ok_calls.first(4).map { |r| "#{r[:method_name]}(#{r[:args].join(', ')}) -> #{r.dig(:outcome_summary, :value_class)}" }
