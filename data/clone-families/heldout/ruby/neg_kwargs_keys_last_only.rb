history = context[:conversation_history] || []
result = history.last(1).flat_map { |r| (r[:kwargs] || {}).keys }.uniq.sort
