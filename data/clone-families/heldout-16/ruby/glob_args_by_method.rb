history = Array(context[:conversation_history])
by_method = {}
history.each do |step|
  method = step[:method_name]
  next if method.nil? || method == ""

  (step[:args] || []).each do |a|
    next unless a.is_a?(String) && a.count("*").positive?
    next if a.match?(/\s/)

    (by_method[method] ||= []) << { call_id: step[:call_id], pattern: a }
  end
end
by_method
