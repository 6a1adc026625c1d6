history = context[:conversation_history] || []

needs = Hash.new(0)
history.each do |rec|
  next if rec.dig(:outcome_summary, :ok)
  need = rec[:need]
  next if need.nil? || need.empty?
  needs[need] += 1
end

needs
