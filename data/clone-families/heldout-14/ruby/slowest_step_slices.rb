require "time"

records = context[:conversation_history] || []
turns = records.drop_while { |r| r[:role] != "user" }.slice_before { |r| r[:role] == "user" }
report = turns.filter_map do |turn|
  next if turn.size < 2

  step = turn.each_cons(2).max_by { |a, b| Time.iso8601(b[:timestamp]) - Time.iso8601(a[:timestamp]) }
  gap = Time.iso8601(step[1][:timestamp]) - Time.iso8601(step[0][:timestamp])
  { turn: turn.first[:call_id], slowest: step[1][:call_id], after: step[0][:call_id], seconds: gap.to_i }
end
Agent::Outcome.ok(report)
