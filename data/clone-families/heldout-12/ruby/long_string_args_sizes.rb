log = context[:conversation_history] || []
rows = log.filter_map do |entry|
  next if entry[:method_name].to_s.empty?
  longest = Array(entry[:args]).grep(String).map(&:size).max
  next if longest.nil? || longest <= 80
  { call_id: entry[:call_id], method: entry[:method_name], longest_arg_chars: longest }
end
Agent::Outcome.ok(rows)
