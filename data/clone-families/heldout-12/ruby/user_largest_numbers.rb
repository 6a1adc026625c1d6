history = context[:conversation_history] || []
numbers = []
history.each do |rec|
  next unless rec[:role] == "user"
  text = rec[:content].to_s
  values = text.scan(/-?\d+(?:\.\d+)?/).map { |token| token.include?(".") ? token.to_f : token.to_i }
  numbers << values.max unless values.empty?
end
numbers
