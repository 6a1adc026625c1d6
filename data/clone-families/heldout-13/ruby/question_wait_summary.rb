require "time"

turns = context[:conversation_history] || []
asked = turns.each_with_index.select do |t, _i|
  t[:role] == "assistant" && t[:content].to_s.strip.end_with?("?")
end

delays = asked.filter_map do |t, i|
  answer = turns[(i + 1)..].find { |later| later[:role] == "user" }
  next if answer.nil?
  { id: t[:call_id], wait_s: (Time.parse(answer[:timestamp]) - Time.parse(t[:timestamp])).round }
end

waits = delays.map { |d| d[:wait_s] }
Agent::Outcome.ok(
  questions_asked: asked.size,
  answered: delays,
  mean_wait_s: waits.empty? ? nil : (waits.sum.to_f / waits.size).round(1),
  longest_wait_s: waits.max
)
