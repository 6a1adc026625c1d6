history = context.fetch(:conversation_history, nil) || []
run = history.reverse.take_while do |record|
  record[:role] == "tool"
end
run.reverse.map { |record| [record[:call_id], record[:content]] }
