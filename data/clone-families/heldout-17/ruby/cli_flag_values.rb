history = context[:conversation_history] || []
values = {}
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  Array(rec[:args]).each do |arg|
    next unless arg.is_a?(String)

    arg.split.each do |token|
      m = token.match(/\A(--?[A-Za-z][\w-]*)=(.*)\z/)
      values[m[1]] = m[2] if m
    end
  end
end
values
