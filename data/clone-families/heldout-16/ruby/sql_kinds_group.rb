history = Array(context[:conversation_history])
statements = []
history.each do |step|
  name = step[:method_name]
  next if name.nil? || name == ""

  (step[:args] || []).each do |a|
    statements << [a.lstrip.split(/\b/).first.upcase, step[:call_id]] if a.is_a?(String) && a.strip =~ /\A(select|insert|update|delete)\b/i
  end
end
statements.group_by(&:first).to_h { |verb, rows| [verb, { count: rows.size, call_ids: rows.map(&:last).uniq }] }
