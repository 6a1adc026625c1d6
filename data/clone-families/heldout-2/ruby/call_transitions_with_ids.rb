step = (kwargs[:step] || 1).to_i
prev = nil
out = []
(context[:conversation_history] || []).each do |e|
  next if e[:method_name].nil?
  out << { from: prev[:method_name], to: e[:method_name], ids: [prev[:call_id], e[:call_id]] } if prev
  prev = e
end
result = { pairs: out, step: step }
