history = context[:conversation_history] || []
arities = {}
history.each do |rec|
  method = rec[:method_name]
  next if method.nil? || method.empty?
  (arities[method] ||= []) << (rec[:args] || []).length
end
arities.transform_values(&:max).sort_by { |m, n| [-n, m] }.to_h
