def success?(rec)
  s = rec[:outcome_summary]
  s.is_a?(Hash) && s[:ok]
end

history = context[:conversation_history] || []
order = history.select { |r| success?(r) && r[:goal] && r[:goal] != "" }.map { |r| r[:goal] }.uniq
if order.empty?
  "no goal has produced a successful result yet"
else
  order.each_with_index.map { |goal, i| "#{i + 1}. #{goal}" }.join("\n")
end
