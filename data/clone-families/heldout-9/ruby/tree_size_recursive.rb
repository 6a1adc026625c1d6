log = context[:conversation_history] || []
ids = log.map { |e| e[:call_id] }
kids = log.group_by { |e| e[:parent_call_id] }
size_of = lambda do |id|
  1 + (kids[id] || []).sum { |child| size_of.call(child[:call_id]) }
end
roots = log.select { |e| e[:parent_call_id].to_s.empty? || !ids.include?(e[:parent_call_id]) }
lines = roots.map { |e| "#{e[:call_id]} (#{e[:method_name].to_s.empty? ? e[:role] : e[:method_name]}): #{size_of.call(e[:call_id])} records" }
lines.empty? ? "empty history" : lines.join("\n")
