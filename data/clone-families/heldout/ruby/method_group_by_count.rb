history = context[:conversation_history] || []
grouped = history.group_by { |rec| rec[:method_name] }
result = grouped.transform_values(&:count)
