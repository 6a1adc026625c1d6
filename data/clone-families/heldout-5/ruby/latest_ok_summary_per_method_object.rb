convo = context[:conversation_history] || []

table = convo.each_with_object({}) do |entry, acc|
  summary = entry[:outcome_summary]
  next if summary.nil? || summary[:ok] != true
  acc[entry[:method_name]] = { summary: summary[:summary], at: entry[:timestamp] }
end

Agent::Outcome.ok(table)
