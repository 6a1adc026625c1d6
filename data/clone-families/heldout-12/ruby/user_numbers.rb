history = context[:conversation_history] || []
numbers = []
history.each do |rec|
  next unless rec[:role] == "user"
  text = rec[:content].to_s
  text.scan(/-?\d+(?:\.\d+)?/).each do |token|
    numbers << (token.include?(".") ? token.to_f : token.to_i)
  end
end
numbers
