history = context.fetch(:conversation_history, nil) || []
run = history.reverse.take_while { |record|
  record[:role] == "tool"
}
run.reverse.map do |record| record[:call_id] end
