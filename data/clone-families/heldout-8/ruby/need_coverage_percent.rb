calls = context[:conversation_history] || []
stated = 0
calls.each do |c|
  stated += 1 if c[:need] && c[:need] != ""
end
if calls.empty?
  { percent: nil, with_need: 0, total: 0 }
else
  { percent: (100.0 * stated / calls.size).round(1), with_need: stated, total: calls.size }
end
