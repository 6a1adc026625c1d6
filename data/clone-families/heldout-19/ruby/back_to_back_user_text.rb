history = Array(context[:conversation_history])
unanswered = []
history.each_with_index do |msg, i|
  next if i.zero? || msg[:role] != "user"

  unanswered << "#{msg[:call_id]} (after #{history[i - 1][:call_id]})" if history[i - 1][:role] == "user"
end
if unanswered.empty?
  "Every user message followed a non-user record."
else
  "User messages sent right after another user message: #{unanswered.join(', ')}"
end
