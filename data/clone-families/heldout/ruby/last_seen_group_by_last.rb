history = context[:conversation_history] || []
result = history.group_by { |r| r[:speaker] }.transform_values { |recs| recs.last[:timestamp] }
