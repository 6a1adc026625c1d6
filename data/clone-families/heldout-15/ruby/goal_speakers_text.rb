history = context[:conversation_history] || []
table = history.each_with_object({}) do |m, acc|
  next if m[:goal].to_s == "" || m[:speaker].to_s == ""

  (acc[m[:goal]] ||= Hash.new(0))[m[:speaker]] += 1
end
if table.empty?
  "No goal has been worked on yet."
else
  table.map { |goal, who| "#{goal}: #{who.map { |s, n| "#{s} (#{n})" }.join(', ')}" }.join("\n")
end
