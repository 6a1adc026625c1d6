history = context[:conversation_history] || []

counts = history.each_with_object({}) do |step, acc|
  method = step[:method_name]
  next if method.nil? || method.strip.empty?
  action = method.include?("_") ? method[0, method.index("_")] : method
  acc[action] = (acc[action] || 0) + 1
end

if counts.empty?
  "no tool calls yet"
else
  counts.sort_by { |action, n| [-n, action] }.map { |action, n| "#{action} x#{n}" }.join(", ")
end
