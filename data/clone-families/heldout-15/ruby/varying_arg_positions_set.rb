require "set"

values = Hash.new { |h, k| h[k] = Set.new }
Array(context[:conversation_history]).each do |call|
  method = call[:method_name].to_s
  next if method == ""

  (call[:args] || []).each.with_index { |a, pos| values[[method, pos]] << a }
end
out = Hash.new { |h, k| h[k] = [] }
values.keys.sort_by { |m, pos| [m, pos] }.each do |(m, pos)|
  out[m] << pos if values[[m, pos]].size > 1
end
out.to_h
