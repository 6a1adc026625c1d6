records = context.fetch(:conversation_history, nil) || []
calls = records.reject { |r| r[:method_name].to_s.empty? }.group_by { |r| r[:method_name] }
result = calls.each_with_object({}) do |(method, rs), acc|
  arg_lists = rs.map { |r| Array(r[:args]) }
  width = arg_lists.map(&:size).max || 0
  changing = (0...width).select do |i|
    arg_lists.select { |a| a.size > i }.map { |a| a[i] }.uniq.length >= 2
  end
  acc[method] = changing if changing.any?
end
Agent::Outcome.ok(result)
