history = Array(context[:conversation_history])
counts = Hash.new(0)
history.each do |record|
  method = record[:method_name]
  need = record[:need]
  next unless method.is_a?(String) && !method.empty? && need.is_a?(String) && !need.empty?

  counts[method] += 1
end
Agent::Outcome.ok(counts)
