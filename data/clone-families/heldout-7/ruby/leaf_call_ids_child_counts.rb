calls = context[:conversation_history] || []
kids = Hash.new(0)
calls.each do |c|
  kids[c[:parent_call_id]] += 1 unless c[:parent_call_id].to_s.empty?
end
calls.select { |c| kids[c[:call_id]].zero? }.map { |c| { call_id: c[:call_id], depth: c[:depth] } }
