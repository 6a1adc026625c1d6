calls = context[:conversation_history] || []
counts = Hash.new(0)
prev = nil
calls.each do |call|
  name = call[:method_name].to_s
  next if name.empty?
  counts["#{prev} -> #{name}"] += 1 if prev
  prev = name
end
counts.sort_by { |_, n| -n }.to_h
