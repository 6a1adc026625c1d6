history = context[:conversation_history] || []
seen = {}
history.each do |rec|
  options = rec[:kwargs]
  next if options.nil? || options.empty?
  options.each do |name, val|
    (seen[name] ||= {})[val.class] = true
  end
end
lines = seen.keys.sort.map { |name| "#{name}: #{seen[name].keys.map(&:name).sort.join(' | ')}" }
lines.empty? ? "no kwargs passed" : lines.join("\n")
