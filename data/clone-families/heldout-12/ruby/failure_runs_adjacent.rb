require "time"

history = context[:conversation_history] || []
flags = history.map { |rec| rec[:outcome_summary].is_a?(Hash) && rec[:outcome_summary][:ok] == false }
runs = history.zip(flags).chunk_while do |(_, a), (_, b)|
  a && b
end
runs.select { |group| group.size >= 2 && group.first[1] }.map do |group|
  { first_call: group.first[0][:call_id], failures: group.size }
end
