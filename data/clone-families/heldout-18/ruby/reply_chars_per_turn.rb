history = context[:conversation_history] || []
totals = {}
current_turn = nil
history.each do |record|
  if record[:role] == "user"
    current_turn = record[:call_id]
    next
  end
  next if current_turn.nil?
  next unless record[:role] == "assistant" && record[:content].is_a?(String)

  totals[current_turn] = totals.fetch(current_turn, 0) + record[:content].length
end
totals
