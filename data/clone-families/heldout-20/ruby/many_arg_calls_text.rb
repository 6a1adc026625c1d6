history = context[:conversation_history] || []
wide = []
history.each do |record|
  next unless record.is_a?(Hash)

  method = record[:method_name]
  next if method.nil? || method.empty?

  args = record[:args] || []
  wide << "#{record[:call_id]} via #{method}" if args.size > 3
end
wide
