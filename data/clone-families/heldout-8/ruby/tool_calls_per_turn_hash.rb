entries = context[:conversation_history] || []
current = nil
per_turn = entries.each_with_object({}) do |e, acc|
  case e[:role]
  when "user"
    current = e[:call_id]
    acc[current] = 0
  when "tool"
    acc[current] += 1 if current
  end
end
{ per_turn: per_turn, total_tool_calls: per_turn.values.sum }
