history = Array(context[:conversation_history])
needs = {}
history.each do |record|
  method = record[:method_name]
  need = record[:need]
  next unless method.is_a?(String) && !method.empty? && need.is_a?(String) && !need.empty?

  (needs[method] ||= []) << need unless needs.fetch(method, []).include?(need)
end
Agent::Outcome.ok(needs)
