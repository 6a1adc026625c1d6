require "time"

history = context[:conversation_history] || []
first_error = history.find { |rec| rec.dig(:outcome_summary, :ok) == false }

if first_error
  (Time.iso8601(history.last[:timestamp]) - Time.iso8601(first_error[:timestamp])).to_i
end
