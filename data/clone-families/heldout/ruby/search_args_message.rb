history = context[:conversation_history] || []
term = ((context[:memory] || {})[:search_term] || "invoice").downcase

found = history.find_all { |entry| entry[:args].to_s.downcase.include?(term) }
if found.empty?
  result = "No calls mention '#{term}'."
else
  listing = found.collect { |entry| "#{entry[:call_id]} (#{entry[:method_name]})" }.join(", ")
  result = "#{found.length} call(s) mention '#{term}': #{listing}"
end
