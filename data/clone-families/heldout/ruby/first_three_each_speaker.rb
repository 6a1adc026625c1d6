lines = []
history = context[:conversation_history] || []
history.first(3).each do |entry|
  lines << "#{entry[:call_id]} #{entry[:method_name]} (#{entry[:speaker]})"
end
result = lines
