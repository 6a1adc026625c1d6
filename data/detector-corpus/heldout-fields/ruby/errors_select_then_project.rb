history = context[:conversation_history] || []
failed = history.select { |r| r[:outcome_summary][:status] == "error" }
result = failed.map do |r|
  { call_id: r[:call_id], method_name: r[:method_name], message: r.dig(:outcome_summary, :error_message) }
end
