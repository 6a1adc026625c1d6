records = context[:conversation_history] || []
grouped = records.group_by { |rec| rec[:method_name] }
result = grouped.transform_values(&:count)
