# Step 1: Decompose
# - Capability: find earlier calls that mention the user's search term

query = (kwargs[:query] || "").to_s.downcase
found = []

(context[:conversation_history] || []).each do |entry|
  next if entry.nil?
  text = ([entry[:method_name]] + (entry[:args] || [])).join(" ").downcase
  next unless text.include?(query)
  found << { call_id: entry[:call_id], at: entry[:timestamp] }
end

result = found
