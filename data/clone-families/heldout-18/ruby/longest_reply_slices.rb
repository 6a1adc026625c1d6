history = context.fetch(:conversation_history, nil) || []
start = history.index { |r| r[:role] == "user" }
turns = start ? history.drop(start).slice_before { |r| r[:role] == "user" }.to_a : []
turns.each_with_object({}) do |(user, *rest), out|
  replies = rest.select { |r| r[:role] == "assistant" && r[:content].is_a?(String) }
  next if replies.empty?

  out[user[:call_id]] = replies.max_by { |r| r[:content].length }[:call_id]
end
