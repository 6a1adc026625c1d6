Array(context[:conversation_history])
  .select { |r| r[:method_name].is_a?(String) && r[:method_name] != "" && r[:depth].is_a?(Integer) }
  .group_by { |r| r[:method_name] }
  .transform_values { |rs| rs.map { |r| r[:depth] }.uniq.sort }
  .reject { |_m, levels| levels.one? }
