calls = context[:conversation_history] || []
with_timeout = calls.select { |c| !c.dig(:kwargs, :timeout).nil? }
result = with_timeout.last&.dig(:kwargs, :timeout)
