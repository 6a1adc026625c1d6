history = context[:conversation_history] || []
flags = Hash.new(0)
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  Array(rec[:args]).each do |arg|
    next unless arg.is_a?(String)

    arg.split.each do |token|
      m = token.match(/\A(--?[A-Za-z][\w-]*)(?:=|\z)/)
      flags[m[1]] += 1 if m
    end
  end
end
flags
