calls = context.fetch(:conversation_history, nil) || []
pairs = calls.reject { |c| c[:method_name].to_s.empty? }
             .flat_map { |c| Array(c[:args]).grep(String).map { |s| [c[:method_name], s.length] } }
by_method = pairs.group_by(&:first)
by_method.transform_values { |ps| ps.sum(&:last).fdiv(ps.size) }
