records = context.fetch(:conversation_history, nil) || []
records.flat_map do |r|
  next [] if r[:method_name].nil? || r[:method_name].empty?

  Array(r[:args]).each_with_index.filter_map do |arg, pos|
    [r[:call_id], pos, arg] if arg.is_a?(String) && arg.match?(/\A\S*\*\S*\z/)
  end
end
