STOP_WORDS = /\b(stop|cancel|abort)\b/i

history = context[:conversation_history] || []
turn_calls = nil
before_stop = []
history.each do |rec|
  if rec[:role] == "user"
    text = rec[:content]
    before_stop.concat(turn_calls) if turn_calls && text.is_a?(String) && text.match?(STOP_WORDS)
    turn_calls = []
    next
  end
  turn_calls << rec[:call_id] if turn_calls && rec[:role] == "tool"
end
before_stop
