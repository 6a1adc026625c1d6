since = args[0] || kwargs[:since]
until_ts = args[1] || kwargs[:until]
calls = (context[:conversation_history] || []).reject do |h|
  h[:timestamp].nil? || h[:timestamp] < since || h[:timestamp] > until_ts
end
result = calls.empty? ? "No calls between #{since} and #{until_ts}." : calls.map { |h| "#{h[:call_id]} (#{h[:method_name]})" }
