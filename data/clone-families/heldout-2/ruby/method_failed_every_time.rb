target = args[0] || "deploy_service"
history = context[:conversation_history] || []
calls = history.select { |r| r[:method_name] == target }
result = !calls.empty? && calls.all? { |r| r.dig(:outcome_summary, :ok) == false }
