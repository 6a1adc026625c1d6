target = args[0] || "deploy_service"
history = context[:conversation_history] || []
result = history.any? { |r| r[:method_name] == target && r.dig(:outcome_summary, :ok) == false }
