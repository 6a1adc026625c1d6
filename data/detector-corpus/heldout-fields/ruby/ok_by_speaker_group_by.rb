history = context[:conversation_history] || []
grouped = history.last(12).group_by { |r| r[:speaker] }
result = grouped.transform_values { |rs| rs.count { |r| r.dig(:outcome_summary, :ok) } }
