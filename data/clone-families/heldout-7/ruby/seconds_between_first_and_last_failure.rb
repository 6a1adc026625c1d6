require "time"

history = context[:conversation_history] || []
failed = ->(r) { r.dig(:outcome_summary, :ok) != true }
first = history.index(&failed)
last = history.rindex(&failed)
if first.nil? || first == last
  0
else
  (Time.parse(history[last][:timestamp]) - Time.parse(history[first][:timestamp])).to_i
end
