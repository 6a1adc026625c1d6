require "time"

msgs = context[:conversation_history] || []
days = Hash.new(0)
msgs.each do |m|
  next if m[:timestamp].nil? || m[:timestamp].empty?

  days[Time.parse(m[:timestamp]).utc.to_date.to_s] += 1
end
rows = days.map { |day, n| { date: day, records: n, share: (100.0 * n / days.values.sum).round(1) } }
Agent::Outcome.ok(rows)
