history = context[:conversation_history] || []
lengths = Hash.new { |h, k| h[k] = [] }
history.each do |call|
  method = call[:method_name]
  next if method.nil? || method.empty?

  (call[:args] || []).each do |arg|
    lengths[method] << arg.length if arg.is_a?(String)
  end
end
lengths.transform_values { |ls| (ls.sum.to_f / ls.size).round(2) }
