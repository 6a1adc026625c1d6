records = context[:conversation_history] || []
records.each_cons(2)
       .select { |prev, cur| prev[:timestamp] == cur[:timestamp] }
       .map { |_prev, cur| cur[:call_id] }
