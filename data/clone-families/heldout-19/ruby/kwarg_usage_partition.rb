history = context[:conversation_history] || []
by_method = history.select { |c| c[:method_name].is_a?(String) && !c[:method_name].empty? }.group_by { |c| c[:method_name] }
by_method.map do |name, calls|
  keyed, plain = calls.partition { |c| c[:kwargs].is_a?(Hash) && !c[:kwargs].empty? }
  [name, keyed.size, plain.size]
end
