require 'set'
seen = Set.new
result = []
(context[:conversation_history] || []).each do |rec|
  next if seen.include?(rec[:method_name])
  seen << rec[:method_name]
  result << rec[:method_name]
end
