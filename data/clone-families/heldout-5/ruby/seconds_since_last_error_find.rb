require "time"

history = context[:conversation_history] || []
last_error = history.reverse.find { |rec| rec.dig(:outcome_summary, :ok) == false }

if last_error
  (Time.iso8601(history.last[:timestamp]) - Time.iso8601(last_error[:timestamp])).to_i
end
