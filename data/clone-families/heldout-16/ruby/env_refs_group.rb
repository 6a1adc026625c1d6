history = Array(context[:conversation_history])
pairs = history.flat_map do |step|
  method = step[:method_name]
  next [] if method.nil? || method.empty?

  (step[:args] || []).select { |a| a.is_a?(String) && a.include?("$") }
                     .flat_map { |a| a.scan(/\$\{?([A-Z_][A-Z0-9_]*)/).flatten }
                     .map { |var| [method, var] }
end
pairs.uniq.group_by(&:first).transform_values { |list| list.map(&:last) }
