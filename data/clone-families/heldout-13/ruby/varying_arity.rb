history = context[:conversation_history] || []
arities = {}
history.each do |rec|
  method = rec[:method_name]
  next if method.nil? || method.empty?
  (arities[method] ||= []) << (rec[:args] || []).length
end
arities.transform_values { |ns| ns.uniq.sort }.select { |_m, ns| ns.size > 1 }
