history = context[:conversation_history] || []
calls = history.select do |entry|
  name = entry[:method_name]
  !(name.nil? || name.empty?) && (entry[:args] || []).size > 3
end
calls.map { |entry| entry[:call_id] }
