term = kwargs[:query].to_s.downcase
history = context[:conversation_history] || []

records = history.map { |r| { call_id: r[:call_id], at: r[:timestamp] } }
result = { query: term, records: records }
