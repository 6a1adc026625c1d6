records = context[:conversation_history] || []
ids = records.map { |r| r[:call_id] }
ids.size - ids.uniq.size
