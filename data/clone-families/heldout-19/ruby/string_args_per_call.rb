history = context[:conversation_history] || []
counts = Hash.new { |h, k| h[k] = [] }
history.each do |call|
  method = call[:method_name]
  next if method.nil? || method.empty?

  counts[method] << (call[:args] || []).count { |arg| arg.is_a?(String) }
end
counts.transform_values { |ns| (ns.sum.to_f / ns.size).round(2) }
