Array(context[:conversation_history])
  .select { |r| !r[:method_name].to_s.empty? && (r[:args] || []).any? { |a| a.is_a?(String) && a.match?(/\n/) } }
  .group_by { |r| r[:method_name] }
  .transform_values { |rs| rs.map { |r| r[:call_id] } }
