history = context.fetch(:conversation_history, nil) || []
clock = /\b(?:[01]?\d|2[0-3]):[0-5]\d\b/
earliest = {}
history.each do |msg|
  next unless msg[:role] == "user"

  text = msg[:content]
  next unless text.is_a?(String)

  times = text.scan(clock)
  next if times.empty?

  earliest[msg[:call_id]] = times.min_by { |t| t.split(":").map(&:to_i) }
end
earliest
