history = context[:conversation_history] || []
lines = history.group_by { |r| r[:method_name] }.map do |name, recs|
  "#{name}: #{recs.size} call(s), last at #{recs.last[:timestamp]}"
end
result = lines.sort.join("\n")
