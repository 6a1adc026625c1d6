generated_at = Time.now.utc.strftime("%H:%M:%S")
hist = context[:conversation_history] || []
last_calls = hist.reverse.first(5)
ok_calls = last_calls.select { |r| r&.dig(:outcome_summary, :ok) }
result = { all_ok: ok_calls.size == last_calls.size, at: generated_at }
