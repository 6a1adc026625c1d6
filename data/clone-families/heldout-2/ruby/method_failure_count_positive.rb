name = args.first || "deploy_service"
calls = (context[:conversation_history] || []).select { |c| c[:method_name] == name }
failed_calls = calls.count { |c| (c[:outcome_summary] || {})[:ok] == false }
result = failed_calls > 0
