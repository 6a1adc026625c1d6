history = Array(context[:conversation_history])
earlier = []
quoted = {}
history.each do |msg|
  if msg[:role] == "assistant" && msg[:content].is_a?(String)
    match = earlier.find { |e| msg[:content].include?(e[:summary]) }
    quoted[msg[:call_id]] = { summary: match[:summary], from: match[:call_id] } if match
  end
  os = msg[:outcome_summary]
  next unless os.is_a?(Hash) && os[:ok] == true

  s = os[:summary].is_a?(String) ? os[:summary].strip : ""
  earlier << { call_id: msg[:call_id], summary: s } unless s.empty?
end
quoted
