history = context[:conversation_history] || []
if history.empty?
  result = "nothing yet"
else
  head = history[0..2]
  result = head.map { |h| "#{h[:call_id]} #{h[:method_name]}" }.join("\n")
end
Agent::Outcome.ok(result)
