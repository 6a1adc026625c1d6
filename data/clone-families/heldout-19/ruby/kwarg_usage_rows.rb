history = context[:conversation_history] || []
rows = {}
history.each do |call|
  name = call[:method_name]
  next if name.nil? || name == ""

  row = rows[name] ||= { method: name, calls: 0, with_kwargs: 0 }
  row[:calls] += 1
  row[:with_kwargs] += 1 if call[:kwargs].is_a?(Hash) && call[:kwargs].size.positive?
end
Agent::Outcome.ok(rows.values.map { |r| r.merge(share: (r[:with_kwargs].to_f / r[:calls]).round(2)) })
