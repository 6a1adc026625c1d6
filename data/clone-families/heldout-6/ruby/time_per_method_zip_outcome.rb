require "time"

# Attribute the wall-clock time until the next record to each method, to spot slow tools.
history = context[:conversation_history] || []
pairs = history.zip(history.drop(1)).reject { |_, nxt| nxt.nil? }
per_method = pairs.each_with_object(Hash.new(0)) do |(rec, nxt), acc|
  name = rec[:method_name] or next
  acc[name] += (Time.parse(nxt[:timestamp]).to_i - Time.parse(rec[:timestamp]).to_i)
end
slowest = per_method.max_by { |_, secs| secs }
Agent::Outcome.ok({ seconds_by_method: per_method, slowest: slowest&.first })
