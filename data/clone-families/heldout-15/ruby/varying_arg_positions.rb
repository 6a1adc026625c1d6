history = context[:conversation_history] || []
seen = {}
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?

  (rec[:args] || []).each_with_index do |arg, i|
    ((seen[name] ||= {})[i] ||= []) << arg
  end
end
varying = {}
seen.each do |name, positions|
  idx = positions.select { |_i, values| values.uniq.size > 1 }.keys.sort
  varying[name] = idx unless idx.empty?
end
varying
