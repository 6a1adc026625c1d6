turns = context[:conversation_history] || []
turns.each_cons(2)
     .select { |prev, nxt| prev[:role] == 'tool' && prev.dig(:outcome_summary, :ok) == false && nxt[:role] == 'assistant' }
     .map { |prev, nxt| { failed_call: prev[:call_id], error: prev.dig(:outcome_summary, :error_type), reply: nxt[:content] } }
