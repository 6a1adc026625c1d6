require "time"

def seconds_between(a, b)
  Time.parse(b[:timestamp]).to_f - Time.parse(a[:timestamp]).to_f
end

records = context[:conversation_history] || []
budget = {}
records.each_with_index do |rec, idx|
  following = records[idx + 1]
  break unless following
  next if rec[:goal].to_s == ""
  budget[rec[:goal]] = budget.fetch(rec[:goal], 0) + seconds_between(rec, following)
end
if budget.empty?
  "no time attributed to any goal"
else
  budget.map { |goal, secs| "#{goal}: #{secs.round}s" }.join("\n")
end
