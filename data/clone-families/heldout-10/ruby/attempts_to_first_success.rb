history = context[:conversation_history] || []
attempts = {}
succeeded = {}
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?
  next if succeeded[name]
  attempts[name] = (attempts[name] || 0) + 1
  succeeded[name] = true if rec.dig(:outcome_summary, :ok) == true
end
attempts.to_h { |name, n| [name, succeeded[name] ? n : nil] }
