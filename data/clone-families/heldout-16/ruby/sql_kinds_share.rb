history = context[:conversation_history] || []
verbs = []
history.each do |h|
  next if h[:method_name].to_s.empty?

  Array(h[:args]).each do |arg|
    next unless arg.is_a?(String)

    m = /\A(select|insert|update|delete)\b/i.match(arg.strip)
    verbs << m[1].upcase if m
  end
end
total = verbs.size
shares = verbs.tally.transform_values { |n| (100.0 * n / total).round(1) }
Agent::Outcome.ok({ statements: total, percent: shares })
