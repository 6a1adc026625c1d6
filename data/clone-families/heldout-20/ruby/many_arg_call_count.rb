history = context[:conversation_history] || []
wide = Hash.new(0)
history.each do |record|
  method = record[:method_name]
  next if method.nil? || method.empty?

  args = record[:args] || []
  wide[method] += 1 if args.size > 3
end
wide
