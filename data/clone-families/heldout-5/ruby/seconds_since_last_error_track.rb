require "time"

hist = context[:conversation_history] || []
latest_fail_ts = nil
latest_ts = nil
hist.each do |e|
  latest_ts = e[:timestamp]
  latest_fail_ts = e[:timestamp] if e.dig(:outcome_summary, :error_type)
end

gap = latest_fail_ts && (Time.iso8601(latest_ts) - Time.iso8601(latest_fail_ts)).to_i
Agent::Outcome.ok(gap)
