history = context[:conversation_history] || []
seen = {}
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?

  (seen[name] ||= []) << (rec[:args] || [])
end
changed = {}
seen.each do |name, calls|
  next if calls.size < 2

  before, after = calls.last(2)
  idx = (0...[before.size, after.size].max).select { |i| i >= before.size || i >= after.size || before[i] != after[i] }
  changed[name] = idx unless idx.empty?
end
changed
