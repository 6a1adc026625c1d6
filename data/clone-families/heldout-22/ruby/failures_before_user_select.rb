records = context.fetch(:conversation_history, nil) || []
answered = records.each_cons(2)
                  .select { |rec, after| rec.dig(:outcome_summary, :ok) == false && after[:role] == "user" }
                  .map { |rec, after| { failed: rec[:call_id], user: after[:call_id] } }
answered
