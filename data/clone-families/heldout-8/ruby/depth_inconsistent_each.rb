calls = context[:conversation_history] || []
index = {}
calls.each { |c| index[c[:call_id]] = c }
odd = []
calls.each do |c|
  up = index[c[:parent_call_id]]
  next unless up
  expected = up[:depth] + 1
  odd << { call_id: c[:call_id], depth: c[:depth], expected: expected } unless c[:depth] == expected
end
odd
