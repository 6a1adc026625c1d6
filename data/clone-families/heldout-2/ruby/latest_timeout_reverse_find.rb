history = context[:conversation_history] || []
rec = history.reverse.find { |r| (r[:kwargs] || {}).key?(:timeout) }
result = rec ? rec[:kwargs][:timeout] : nil
