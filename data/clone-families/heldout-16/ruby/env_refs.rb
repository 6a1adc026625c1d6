history = context[:conversation_history] || []
refs = {}
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?

  (rec[:args] || []).each do |arg|
    next unless arg.is_a?(String)

    arg.scan(/\$\{?([A-Z_][A-Z0-9_]*)/).flatten.each do |var|
      refs[name] ||= []
      refs[name] << var unless refs[name].include?(var)
    end
  end
end
refs
