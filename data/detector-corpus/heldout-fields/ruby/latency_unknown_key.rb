history = context[:conversation_history] || []
result = history.last(3).sum { |r| r[:latency_ms].to_i }
