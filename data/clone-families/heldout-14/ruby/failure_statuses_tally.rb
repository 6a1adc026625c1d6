history = context[:conversation_history] || []
table = Hash.new { |h, k| h[k] = Hash.new(0) }
history.each do |step|
  o = step[:outcome_summary]
  next if o.nil? || o[:ok] != false
  next if step[:method_name].nil? || step[:method_name] == ""

  s = o[:status]
  table[step[:method_name]][s] += 1 unless s.nil? || s == ""
end
table
