history = context[:conversation_history] || []
pairs = []
history.each_cons(2) do |first, second|
  next unless [first, second].all? { |r| r[:role] == "user" }

  pairs << { previous: first[:call_id], message: second[:call_id], text: second[:content] }
end
Agent::Outcome.ok(pairs)
