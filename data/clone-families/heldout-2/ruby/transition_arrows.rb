records = context[:conversation_history] || []
transitions = records.select { |rec| !rec[:method_name].nil? }.each_cons(2).map do |prev, nxt|
  "#{prev[:method_name]} -> #{nxt[:method_name]}"
end
result = transitions.empty? ? "fewer than two calls" : transitions
