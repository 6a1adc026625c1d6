records = context[:conversation_history] || []
counts = {}
records.each do |r|
  next unless r[:method_name] && !r[:method_name].empty?

  (r[:args] || []).grep(String).each do |sql|
    next unless sql.strip =~ /\A(select|insert|update|delete)\b/i

    kind = Regexp.last_match(1).upcase
    counts[kind] = counts.fetch(kind, 0) + 1
  end
end
counts.empty? ? "No SQL statements were passed." : counts.sort_by { |k, n| [-n, k] }.map { |k, n| "#{k}: #{n}" }.join(", ")
