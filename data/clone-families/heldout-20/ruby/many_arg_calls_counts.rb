history = context[:conversation_history] || []
history.each_with_object([]) { |record, wide|
  method = record[:method_name]
  next if method.nil? || method.empty?

  args = record[:args] || []
  wide << [record[:call_id], args.size] if args.size > 3
}
