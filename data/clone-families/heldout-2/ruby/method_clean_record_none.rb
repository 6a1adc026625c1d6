fn = (args && args[0]) || "deploy_service"
hist = context[:conversation_history] || []
clean = hist.none? { |h| h[:method_name] == fn && h[:outcome_summary] && !h[:outcome_summary][:ok] }
total = hist.count { |h| h[:method_name] == fn }
result = { method: fn, any_failed: !clean, calls: total }
