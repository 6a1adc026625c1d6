history = context[:conversation_history] || []
usage = {}
history.each do |step|
  next if step[:speaker].nil? || step[:speaker].empty?
  next if step[:method_name].nil? || step[:method_name].empty?

  (usage[step[:speaker]] ||= Hash.new(0))[step[:method_name]] += 1
end
rendered = usage.sort.map do |speaker, methods|
  listed = methods.sort_by { |m, n| [-n, m] }.map { |m, n| "#{m} x#{n}" }.join(", ")
  "#{speaker}: #{listed}"
end
rendered.empty? ? "No speaker has called a method yet." : rendered.join("\n")
