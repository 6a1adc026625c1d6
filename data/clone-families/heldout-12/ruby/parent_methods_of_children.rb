history = context[:conversation_history] || []
method_of = {}
history.each { |rec| method_of[rec[:call_id]] = rec[:method_name] }
callers = {}
history.each do |rec|
  method = rec[:method_name]
  next if method.nil? || method.empty?
  parent = rec[:parent_call_id]
  next if parent.nil? || parent.empty?
  caller = method_of[parent]
  (callers[method] ||= []) << caller if caller && !caller.empty? && !callers.fetch(method, []).include?(caller)
end
callers.keys.sort.map { |method| [method, callers[method].sort] }.to_h
