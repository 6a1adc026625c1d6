history = context[:conversation_history] || []
longest = {}
current_turn = nil
history.each do |record|
  if record[:role] == "user"
    current_turn = record[:call_id]
    next
  end
  next if current_turn.nil?
  next unless record[:role] == "assistant" && record[:content].is_a?(String)

  best = longest[current_turn]
  longest[current_turn] = record if best.nil? || record[:content].length > best[:content].length
end
longest.transform_values { |r| r[:call_id] }
