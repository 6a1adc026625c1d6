history = context[:conversation_history] || []
tables = Hash.new(0)
history.each do |rec|
  next if rec[:method_name].nil? || rec[:method_name].empty?

  (rec[:args] || []).each do |arg|
    next unless arg.is_a?(String)
    next unless arg.strip =~ /\A(select|insert|update|delete)\b/i

    arg.scan(/\b(?:from|into|update|join)\s+([A-Za-z_][\w.]*)/i) { |(table)| tables[table] += 1 }
  end
end
tables
