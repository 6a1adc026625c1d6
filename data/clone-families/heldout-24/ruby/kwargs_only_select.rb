entries = context.fetch(:conversation_history, nil) || []
picked = entries.select do |entry|
  name = entry[:method_name]
  positional = entry[:args]
  named = entry[:kwargs]
  !(name.nil? || name.empty?) && (positional.nil? || positional == []) && named.is_a?(Hash) && !named.empty?
end
picked.map { |entry| { call_id: entry[:call_id], method: entry[:method_name], keys: entry[:kwargs].keys, timestamp: entry[:timestamp] } }
