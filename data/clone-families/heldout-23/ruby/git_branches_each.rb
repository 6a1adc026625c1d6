branch_names = []
messages = Array(context[:conversation_history])
messages.each do |message|
  next unless message[:role] == "tool" && message[:content].is_a?(String)

  message[:content].scan(%r{^(?:On branch |Switched to (?:a new )?branch ')([\w./-]+)}).each do |(branch)|
    branch_names << branch unless branch_names.include?(branch)
  end
end
Agent::Outcome.ok(branch_names)
