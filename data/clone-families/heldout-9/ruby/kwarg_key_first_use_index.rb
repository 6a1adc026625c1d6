entries = context[:conversation_history] || []
earliest = {}
entries.each_with_index do |e, i|
  next if e[:kwargs].nil? || e[:kwargs].empty?
  e[:kwargs].each do |name, _value|
    earliest[name] = i unless earliest.include?(name)
  end
end
Agent::Outcome.ok(earliest.sort_by { |_, i| i }.map { |name, i| [name, entries[i][:call_id], i] })
