entries = context[:conversation_history] || []
heads = entries.each_with_object(Hash.new(0)) do |entry, acc|
  summary = entry[:outcome_summary]
  next unless summary.is_a?(Hash) && summary[:ok] == false

  text = summary[:error_message]
  next unless text.is_a?(String) && text.include?(":")

  acc[text.split(":", 2).first.strip] += 1
end
Agent::Outcome.ok(heads)
