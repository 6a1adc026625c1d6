history = context[:conversation_history] || []
last = history.last
ever_failed = history.any? { |r| r[:outcome_summary][:ok] == false }
result = { last_method: last && last[:method_name], ever_failed: ever_failed }
