calls = (context[:conversation_history] || []).reject { |c| c[:method_name].nil? }
result = calls.group_by { |c| c[:method_name] }.transform_values { |v| v.last[:call_id] }
