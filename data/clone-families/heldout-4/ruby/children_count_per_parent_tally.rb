calls = context[:conversation_history] || []
calls.filter_map { |c| c[:parent_call_id] }.tally.sort_by { |parent, n| [-n, parent] }.map { |parent, n| "#{parent}: #{n} child call(s)" }
