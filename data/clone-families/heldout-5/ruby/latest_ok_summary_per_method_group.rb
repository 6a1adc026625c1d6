ok_calls = (context[:conversation_history] || []).select { |h| h.dig(:outcome_summary, :ok) }
ok_calls.group_by { |h| h[:method_name] }.transform_values { |calls| calls.last[:outcome_summary][:summary] }
