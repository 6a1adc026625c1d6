history = context[:conversation_history] || []

fanout = Hash.new(0)
history.each do |rec|
  next if rec[:parent_call_id].nil?
  fanout[rec[:parent_call_id]] += 1
end

fanout
