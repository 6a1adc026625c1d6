wide_calls = []
history = context[:conversation_history] || []
unless history.empty?
  history.each do |step|
    method = step[:method_name]
    next if method.nil? || method.empty?

    params = step[:args] || []
    wide_calls << step[:call_id] if params.size > 3
  end
end
wide_calls
