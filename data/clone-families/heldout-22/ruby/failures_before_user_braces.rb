log = context.fetch(:conversation_history, nil) || []
replies = []
log.each_cons(2) { |entry, nxt|
  next unless entry.dig(:outcome_summary, :ok) == false && nxt[:role] == "user"

  replies << { failed_call: entry[:call_id], user_message: nxt[:call_id] }
}
replies
