calls = (context[:conversation_history] || []).select { |c| c[:method_name] }
pairs = []
(0...(calls.length - 1)).each do |i|
  pairs << [calls[i][:method_name], calls[i + 1][:method_name]]
end
result = pairs
