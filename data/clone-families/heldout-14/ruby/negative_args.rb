history = context[:conversation_history] || []
negatives = []
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  args = rec[:args] || []
  negatives << rec[:call_id] if args.any? { |a| a.is_a?(Numeric) && a < 0 }
end
negatives
