entries = context[:conversation_history] || []
lookup = entries.each_with_object({}) { |e, h| h[e[:call_id]] = e }
found = entries.each_with_object([]) do |e, acc|
  parent = lookup[e[:parent_call_id]]
  next unless parent
  next if e[:args].nil? || e[:args].empty?
  acc << [e[:call_id], e[:method_name], parent[:method_name]] if e[:args] == parent[:args]
end
Agent::Outcome.ok(found)
