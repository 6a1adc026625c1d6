history = context[:conversation_history] || []
counter = {}
history.each do |step|
  next if step[:method_name].nil? || step[:method_name] == ""

  (step[:args] || []).each do |a|
    next unless a.is_a?(String)

    a.split(/\s+/).each do |tok|
      next unless tok =~ /\A(--?[A-Za-z][\w-]*)(=|\z)/

      counter[$1] = counter.fetch($1, 0) + 1
    end
  end
end
Agent::Outcome.ok(counter.sort_by { |flag, n| [-n, flag] })
