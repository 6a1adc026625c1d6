require "time"

history = context[:conversation_history] || []
errors = []
history.each do |item|
  info = item[:outcome_summary]
  next if info.nil? || info.empty?
  next if info[:ok]
  errors << [item[:call_id], Time.parse(item[:timestamp]), item[:method_name]]
end
result = []
i = 0
while i < errors.length
  j = i
  j += 1 while j + 1 < errors.length && errors[j + 1][1] - errors[j][1] <= 60
  result << { from: errors[i][0], to: errors[j][0], count: j - i + 1, methods: errors[i..j].map { |e| e[2] }.compact.uniq } if j > i
  i = j + 1
end
Agent::Outcome.ok(result)
