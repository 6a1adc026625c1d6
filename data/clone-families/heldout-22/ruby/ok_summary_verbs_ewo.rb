calls = context[:conversation_history] || []
openers = calls.each_with_object(Hash.new(0)) do |call, acc|
  result = call[:outcome_summary] || {}
  text = result[:summary]
  next unless result[:ok] == true && text.is_a?(String)

  lead = text.split.first
  acc[lead.downcase] += 1 if lead
end
Agent::Outcome.ok(openers)
