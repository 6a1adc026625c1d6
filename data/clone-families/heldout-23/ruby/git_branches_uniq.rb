history = Array(context[:conversation_history])
outputs = history.select do |record|
  record[:role] == "tool" && record[:content].is_a?(String)
end
branches = outputs.flat_map do |record|
  record[:content].scan(%r{^(?:On branch |Switched to (?:a new )?branch ')([\w./-]+)}).flatten
end
Agent::Outcome.ok(branches.uniq)
