require "set"

history = context[:conversation_history] || []
known = Set.new
flagged = []
history.each do |step|
  refs = (step[:args] || []).select { |v| v.is_a?(String) && known.include?(v) }
  flagged << "#{step[:call_id]} (#{step[:method_name]}) uses #{refs.join(', ')}" if step[:method_name].to_s != "" && refs.any?
  known << step[:call_id]
end
flagged.empty? ? "no call passes an earlier call id" : flagged.join("\n")
