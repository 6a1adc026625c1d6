calls = context[:conversation_history] || []
target = kwargs[:method].to_s
mine = calls.select do |c|
  c[:method_name].to_s == target
end
grouped = mine.reject { |c| c[:args].nil? || c[:args].empty? }.group_by { |c| c[:args][0] }
Agent::Outcome.ok({ method: target, calls: mine.size, first_args: grouped.transform_values(&:count) })
