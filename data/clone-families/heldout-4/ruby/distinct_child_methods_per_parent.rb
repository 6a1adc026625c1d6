history = context[:conversation_history] || []

fanout = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  next if rec[:parent_call_id].nil?
  fanout[rec[:parent_call_id]] |= [rec[:method]]
end

fanout.transform_values(&:size)
