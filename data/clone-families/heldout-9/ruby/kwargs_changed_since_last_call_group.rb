log = context[:conversation_history] || []
indexed = log.each_with_index.select { |e, _| e[:method_name] && e[:method_name] != "" }
hits = []
indexed.group_by { |e, _| e[:method_name] }.each_value do |calls|
  calls.each_cons(2) do |(a, _), (b, idx)|
    hits << [idx, b[:call_id]] unless (a[:kwargs] || {}) == (b[:kwargs] || {})
  end
end
ordered = hits.sort.map(&:last)
ordered.empty? ? "no call changed its keyword arguments" : "kwargs changed in: #{ordered.join(', ')}"
