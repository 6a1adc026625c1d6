items = context[:conversation_history] || []
acc = items.inject([0]) do |memo, it|
  if it[:outcome_summary].to_h[:ok]
    memo[-1] += 1
  elsif memo[-1] > 0
    memo << 0
  end
  memo
end
acc.pop if acc.last == 0
Agent::Outcome.ok(acc)
