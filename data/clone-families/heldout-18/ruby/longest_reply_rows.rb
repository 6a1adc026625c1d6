history = Array(context[:conversation_history])
turns = []
history.each do |entry|
  if entry[:role] == "user"
    turns << { user: entry[:call_id], replies: [] }
  elsif turns.any? && entry[:role] == "assistant" && entry[:content].is_a?(String)
    turns.last[:replies] << entry
  end
end
rows = turns.reject { |t| t[:replies].empty? }.map do |t|
  top = t[:replies].max_by { |r| r[:content].size }
  { turn: t[:user], reply: top[:call_id], chars: top[:content].size, replies_in_turn: t[:replies].size }
end
Agent::Outcome.ok(rows)
