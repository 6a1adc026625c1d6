MAX_TURNS = 100

records = context[:conversation_history] || []
per_turn = records.inject([]) do |acc, r|
  next acc + [[r[:call_id], 0]] if r[:role] == 'user'
  next acc if acc.empty?
  acc[0...-1] + [[acc[-1][0], acc[-1][1] + 1]]
end
{
  turns: per_turn.last(MAX_TURNS).map { |cid, n| { user_call: cid, records_after: n } },
  busiest_turn: per_turn.max_by { |_, n| n }&.first
}
