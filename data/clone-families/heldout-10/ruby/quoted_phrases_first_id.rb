history = context[:conversation_history] || []
first_id = {}
history.each do |msg|
  next unless msg[:role] == "user"
  text = msg[:content]
  next if text.nil? || text.strip.empty?
  text.scan(/"([^"]*)"/).each do |(inner)|
    next if inner.empty?
    first_id[inner] ||= msg[:call_id]
  end
end
first_id
