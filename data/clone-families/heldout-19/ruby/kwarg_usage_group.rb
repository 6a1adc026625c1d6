history = context.fetch(:conversation_history, nil) || []
keyed = ->(r) { r[:kwargs].is_a?(Hash) && r[:kwargs].any? }
history.reject { |r| r[:method_name].to_s.empty? }
       .group_by { |r| r[:method_name] }
       .transform_values { |rs| rs.count(&keyed).fdiv(rs.size) }
