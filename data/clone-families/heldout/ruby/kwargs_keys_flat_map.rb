history = context[:conversation_history] || []
result = history.flat_map { |r| (r[:kwargs] || {}).keys }.uniq.sort
