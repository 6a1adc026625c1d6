history = context[:conversation_history] || []
turn = nil
failures = Hash.new(0)
history.each_with_index do |record, i|
  outcome = record[:outcome_summary] || {}
  failures[turn] += 1 if outcome[:ok] == false && turn
  turn = i if record[:role] == "user"
end
worst = failures.max_by { |_turn, n| n }
if worst
  user = history[worst[0]]
  { failures: worst[1], user_call: user[:call_id], message: user[:content] }
end
