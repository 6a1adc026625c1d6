require "time"

log = context[:conversation_history] || []
stamps = log.map { |entry| Time.iso8601(entry[:timestamp]) }
totals = {}
(0...log.length - 1).each do |i|
  goal = log[i][:goal].to_s
  next if goal.empty?
  totals[goal] = (totals[goal] || 0) + (stamps[i + 1] - stamps[i]).to_i
end
Agent::Outcome.ok(totals.sort_by { |_, secs| -secs }.to_h)
