require "time"

history = context[:conversation_history] || []
failed_at = history.rindex { |r| r.dig(:outcome_summary, :ok) == false }
recovered = failed_at && history[(failed_at + 1)..].find { |r| r.dig(:outcome_summary, :ok) }
if recovered
  Time.parse(recovered[:timestamp]) - Time.parse(history[failed_at][:timestamp])
end
