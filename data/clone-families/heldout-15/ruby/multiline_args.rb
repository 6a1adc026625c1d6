history = context[:conversation_history] || []
calls = []
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?

  if (rec[:args] || []).any? { |a| a.is_a?(String) && a.include?("\n") }
    calls << rec[:call_id]
  end
end
calls
