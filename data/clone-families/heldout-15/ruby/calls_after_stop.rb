STOP_WORDS = /\b(stop|cancel|abort)\b/i

history = context[:conversation_history] || []
stopped = false
after_stop = []
history.each do |rec|
  if rec[:role] == "user"
    text = rec[:content]
    stopped = text.is_a?(String) && text.match?(STOP_WORDS)
    next
  end
  after_stop << rec[:call_id] if stopped && rec[:role] == "tool"
end
after_stop
