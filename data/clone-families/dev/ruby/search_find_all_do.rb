needle = kwargs[:query].to_s.downcase
records = context[:conversation_history] || []

hits = records.find_all do |rec|
  haystack = [rec[:method_name], *Array(rec[:args])].join(" ").downcase
  haystack.include?(needle)
end

result = hits.collect do |rec|
  { call_id: rec[:call_id], at: rec[:timestamp] }
end
