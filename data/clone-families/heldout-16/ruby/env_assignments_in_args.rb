history = context[:conversation_history] || []
assigned = {}
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?

  (rec[:args] || []).each do |arg|
    next unless arg.is_a?(String)

    arg.scan(/(?:\A|\s)([A-Z_][A-Z0-9_]*)=/).flatten.each do |var|
      assigned[name] ||= []
      assigned[name] << var unless assigned[name].include?(var)
    end
  end
end
assigned
