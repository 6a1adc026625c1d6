entries = context[:conversation_history] || []
first_seen = {}
last_seen = {}
entries.each do |e|
  kind = e.dig(:outcome_summary, :error_type)
  first_seen[kind] ||= e[:timestamp] if kind
end
entries.reverse_each do |e|
  kind = e.dig(:outcome_summary, :error_type)
  last_seen[kind] ||= e[:timestamp] if kind
end
first_seen.keys.to_h { |k| [k, { first: first_seen[k], last: last_seen[k] }] }
