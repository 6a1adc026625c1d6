def status_of(entry)
  summary = entry[:outcome_summary] || {}
  summary[:status] || 'unknown'
end

entries = context[:conversation_history] || []
pairs = entries.each_with_index.filter_map { |e, i| i.zero? ? nil : [status_of(entries[i - 1]), status_of(e)] }
pairs.group_by(&:itself).to_h { |pair, group| [pair.join('->'), group.size] }
