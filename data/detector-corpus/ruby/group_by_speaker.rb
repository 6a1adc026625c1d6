records = context.fetch(:conversation_history, [])
grouped = records.group_by { |r| r[:speaker] }
result = grouped.transform_values(&:size)
