history = context[:conversation_history] || []
seen_ids = []
referencing = []
history.each do |rec|
  method = rec[:method_name].to_s
  args = rec[:args] || []
  if !method.empty? && args.any? { |a| a.is_a?(String) && seen_ids.include?(a) }
    referencing << rec[:call_id]
  end
  seen_ids << rec[:call_id]
end
referencing
