log = context[:conversation_history] || []
succeeded = ->(call) { call[:outcome_summary] && call[:outcome_summary][:ok] == true }
names = log.map { |call| call[:method_name] }.compact.reject(&:empty?).uniq
names.map do |name|
  calls = log.select { |call| call[:method_name] == name }
  if calls.any?(&succeeded)
    [name, calls.take_while { |call| !succeeded.call(call) }.size + 1]
  else
    [name, "never"]
  end
end
