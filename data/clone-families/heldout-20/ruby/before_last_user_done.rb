history = context[:conversation_history] || []
last_user = history.rindex { |record| record[:role] == "user" }
if last_user.nil?
  []
else
  earlier = history[0...last_user].select { |record| record[:content].is_a?(String) && record[:content].match?(/\b(done|finished|completed)\b/i) }
  earlier.map { |record| [record[:call_id], record[:content]] }
end
