history = context[:conversation_history] || []
wide = []
history.each do |record|
  method = record[:method_name]
  next if method.nil? || method.empty?

  args = record[:args] || []
  wide << record[:call_id] if args.size > 3
end
wide
