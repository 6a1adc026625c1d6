history = context.fetch(:conversation_history, nil) || []
outputs = history.select { |r| r[:role] == "tool" && r[:content].is_a?(String) && !r[:method_name].to_s.empty? }
outputs.group_by { |r| r[:method_name] }.transform_values do |rs|
  rs.sum { |r| r[:content].lines.count }.fdiv(rs.size)
end
