steps = Array(context[:conversation_history])
percent = {}
(0...steps.size - 1).each do |i|
  question, answer = steps[i], steps[i + 1]
  next if question[:role] != "user" || answer[:role] != "assistant"
  next unless question[:content].is_a?(String) && answer[:content].is_a?(String)
  next if question[:content].empty?

  percent[question[:call_id]] = (100.0 * answer[:content].size / question[:content].size).round
end
Agent::Outcome.ok(percent)
