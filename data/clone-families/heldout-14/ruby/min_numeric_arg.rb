history = context[:conversation_history] || []
smallest = {}
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  args = rec[:args] || []
  args.each do |a|
    next unless a.is_a?(Numeric)

    method = rec[:method_name]
    smallest[method] = a if smallest[method].nil? || a < smallest[method]
  end
end
smallest
