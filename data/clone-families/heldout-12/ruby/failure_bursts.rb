require "time"

history = context[:conversation_history] || []
failures = history.select { |rec| rec[:outcome_summary].is_a?(Hash) && rec[:outcome_summary][:ok] == false }
bursts = failures.chunk_while do |a, b|
  Time.parse(b[:timestamp]) - Time.parse(a[:timestamp]) <= 60
end
bursts.select { |group| group.size >= 2 }.map do |group|
  { first_call: group.first[:call_id], failures: group.size }
end
