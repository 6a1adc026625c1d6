entries = context[:conversation_history] || []
state = entries.inject({ tool: false, ids: [] }) do |acc, e|
  role = e[:role].to_s
  if role == "user"
    acc[:tool] = false
  elsif role == "tool"
    acc[:tool] = true
  elsif role == "assistant" && acc[:tool] == false
    acc[:ids] << e[:call_id]
  end
  acc
end
Agent::Outcome.ok(state[:ids])
