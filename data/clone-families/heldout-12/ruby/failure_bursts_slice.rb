require "time"

def failed?(rec)
  s = rec[:outcome_summary]
  !s.nil? && !s.empty? && !s[:ok]
end

records = context[:conversation_history] || []
times = records.select { |r| failed?(r) }.map { |r| [r[:call_id], Time.iso8601(r[:timestamp]).to_i] }
groups = times.slice_when { |(_, t1), (_, t2)| t2 - t1 > 60 }.to_a
storms = groups.reject { |g| g.length < 2 }
if storms.empty?
  "no bursts of failures"
else
  storms.map { |g| "#{g.length} failures within a minute of each other starting at #{g.first[0]} (#{g.last[1] - g.first[1]}s total)" }.join("\n")
end
