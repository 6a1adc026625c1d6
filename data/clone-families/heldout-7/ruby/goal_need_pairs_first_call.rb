calls = context[:conversation_history] || []
index = calls.each_with_object({}) do |c, h|
  g, n = c.values_at(:goal, :need)
  next if [g, n].any? { |v| v.nil? || v == "" }
  h[[g, n]] ||= c[:call_id]
end
Agent::Outcome.ok(index.map { |(g, n), first_id| { goal: g, need: n, first_call: first_id } })
