context[:memory] ||= 0
term = kwargs[:query].to_s.downcase

history = context[:conversation_history] || []
result = history.filter_map do |r|
  words = ([r[:method_name]] + (r[:args] || [])).join(" ").downcase
  next unless words.include?(term)

  { call_id: r[:call_id], at: r[:timestamp], method: r[:method_name] }
end
Agent::Outcome.ok(result)
