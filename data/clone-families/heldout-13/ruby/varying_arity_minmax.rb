require "set"

log = context[:conversation_history] || []
by_method = log.each_with_object(Hash.new { |h, k| h[k] = Set.new }) do |entry, acc|
  m = entry[:method_name].to_s
  acc[m] << (entry[:args] || []).count unless m.empty?
end

rows = by_method.filter_map do |method, sizes|
  next if sizes.size < 2
  { method: method, arities: sizes.to_a.sort, min: sizes.min, max: sizes.max }
end
rows.sort_by { |r| r[:method] }
