history = context[:conversation_history] || []

needs = []
history.each do |rec|
  next if rec.dig(:outcome_summary, :ok)
  need = rec[:need]
  next if need.nil? || need.empty?
  needs << need unless needs.include?(need)
end

needs
