history = context[:conversation_history] || []
failures = {}
seen = {}
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?
  seen[name] = true
  failures[name] = (failures[name] || 0) + 1 if rec.dig(:outcome_summary, :ok) == false
end
seen.keys.to_h { |name| [name, failures[name] || 0] }
