require "time"

history = context[:conversation_history] || []
stamps = history.select { |r| r[:timestamp] }.map { |r| [r, Time.iso8601(r[:timestamp])] }
latest = stamps.map(&:last).max
rows = stamps.filter_map do |rec, at|
  next unless rec[:role] == "user" && rec[:content].is_a?(String)

  hours = (latest - at) / 3600.0
  { call_id: rec[:call_id], hours_ago: hours.round(2), text: rec[:content] } if hours <= 24
end
Agent::Outcome.ok(rows)
