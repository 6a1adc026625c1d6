records = context.fetch(:conversation_history, nil) || []
records = [] unless records.is_a?(Array)
run = records.reverse.take_while do |rec|
  rec.is_a?(Hash) && rec[:role] == "tool"
end
run.reverse.map { |rec| [rec[:call_id], rec[:content]] }
