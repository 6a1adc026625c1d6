history = context[:conversation_history] || []
seen = Hash.new { |h, k| h[k] = [] }
history.each do |step|
  name = step[:method_name]
  next unless name && name != ""
  n = step[:args].nil? ? 0 : step[:args].size
  seen[name] << n unless seen[name].include?(n)
end

report = seen.select { |_name, ns| ns.length >= 2 }.map do |name, ns|
  "#{name} was called with #{ns.sort.join(' or ')} args"
end
report.empty? ? "every tool was always called with the same number of args" : report.join("; ")
