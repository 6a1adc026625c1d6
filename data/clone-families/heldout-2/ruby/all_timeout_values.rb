history = context[:conversation_history] || []
recs = history.select { |r| (r[:kwargs] || {}).key?(:timeout) }
result = recs.map { |r| r[:kwargs][:timeout] }
