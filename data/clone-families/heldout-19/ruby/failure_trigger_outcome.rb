history = context[:conversation_history] || []
current_turn = nil
answer = nil
history.each do |record|
  if record.dig(:outcome_summary, :ok) == false
    answer = current_turn && { user_message: current_turn[:content], user_call_id: current_turn[:call_id], first_failure: record[:call_id] }
    break
  end
  current_turn = record if record[:role] == "user"
end
Agent::Outcome.ok(answer)
