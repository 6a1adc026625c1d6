(context[:conversation_history] || []).group_by { |r| r[:speaker] }.transform_values do |rs|
  (rs.count { |r| r[:outcome_summary][:status] == "error" } * 100.0 / rs.size).round(1)
end
