history = context[:conversation_history] || []
seen_ids = []
referenced = []
history.each do |rec|
  method = rec[:method_name].to_s
  args = rec[:args] || []
  unless method.empty?
    args.each { |a| referenced << a if a.is_a?(String) && seen_ids.include?(a) && !referenced.include?(a) }
  end
  seen_ids << rec[:call_id]
end
referenced
