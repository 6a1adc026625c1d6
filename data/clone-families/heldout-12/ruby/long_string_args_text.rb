def big_payload?(value)
  value.is_a?(String) && value.size >= 81
end

records = context[:conversation_history] || []
heavy = records.select { |r| !r[:method_name].to_s.empty? && (r[:args] || []).any? { |a| big_payload?(a) } }
if heavy.empty?
  "all tool arguments are short"
else
  "calls with long string arguments: " + heavy.map { |r| r[:call_id] }.join(", ")
end
