require "time"

history = context[:conversation_history] || []
times = history.filter_map { |h| [h[:call_id], Time.iso8601(h[:timestamp])] if h[:role] == "user" && h[:timestamp] }
gaps = {}
times.each_with_index do |(id, t), i|
  next if i.zero?

  seconds = t - times[i - 1][1]
  gaps[id] = seconds.to_i if seconds <= 10
end
Agent::Outcome.ok({ followups: gaps, count: gaps.size })
