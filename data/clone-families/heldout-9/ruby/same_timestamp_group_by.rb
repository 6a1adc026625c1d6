records = context[:conversation_history] || []
records.group_by { |r| r[:timestamp] }
       .select { |_stamp, group| group.size > 1 }
       .transform_values { |group| group.map { |r| r[:call_id] } }
