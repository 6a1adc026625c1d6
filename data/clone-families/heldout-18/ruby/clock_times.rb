history = context.fetch(:conversation_history, nil) || []
clock = /\b(?:[01]?\d|2[0-3]):[0-5]\d\b/
counts = Hash.new(0)
history.each do |msg|
  next unless msg[:role] == "user"

  text = msg[:content]
  next unless text.is_a?(String)

  text.scan(clock) { |time| counts[time] += 1 }
end
counts
