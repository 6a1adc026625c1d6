history = context[:conversation_history] || []
strings = []
patterns = []
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  (rec[:args] || []).each do |a|
    next unless a.is_a?(String)

    (a.include?("*") && a !~ /\s/ ? patterns : strings) << a
  end
end
patterns.uniq.to_h do |pattern|
  [pattern, strings.uniq.select { |path| File.fnmatch(pattern, path) }]
end
