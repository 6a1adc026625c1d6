history = context[:conversation_history] || []
sums = { true => 0, false => 0 }
counts = { true => 0, false => 0 }
history.each do |entry|
  outcome = entry[:outcome_summary] || {}
  key = outcome[:status] == "ok"
  sums[key] += entry[:depth] || 0
  counts[key] += 1
end
avg = lambda { |k| counts[k].zero? ? nil : (sums[k].to_f / counts[k]).round(2) }
"mean depth: ok #{avg.call(true).inspect} (#{counts[true]} records), failed #{avg.call(false).inspect} (#{counts[false]} records)"
