log = context[:conversation_history] || []
methods_by_id = {}
log.each { |e| methods_by_id[e[:call_id]] = e[:method_name] }
nested = log.select do |e|
  pm = methods_by_id[e[:parent_call_id]]
  methods_by_id.key?(e[:parent_call_id]) && !pm.to_s.empty? && !e[:method_name].to_s.empty?
end
grouped = nested.group_by { |e| [methods_by_id[e[:parent_call_id]], e[:method_name]] }
grouped.map { |(caller, callee), calls| { parent: caller, child: callee, count: calls.size } }
       .sort_by { |row| -row[:count] }
