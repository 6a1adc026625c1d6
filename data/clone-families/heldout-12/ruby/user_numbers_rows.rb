history = context[:conversation_history] || []
rows = []
history.each_with_index do |item, i|
  next unless item[:role] == "user" && item[:content]
  item[:content].scan(/(-?\d+)(\.\d+)?/) do |whole, frac|
    rows << { call_id: item[:call_id], value: frac ? "#{whole}#{frac}".to_f : whole.to_i, position: i }
  end
end
Agent::Outcome.ok(rows)
