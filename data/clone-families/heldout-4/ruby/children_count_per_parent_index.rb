entries = context[:conversation_history] || []
methods_by_id = entries.to_h { |e| [e[:call_id], e[:method]] }
counts = entries.each_with_object({}) do |e, acc|
  pid = e[:parent_call_id]
  acc[pid] = acc.fetch(pid, 0) + 1 unless pid.nil?
end
counts.map { |pid, n| { parent: pid, parent_method: methods_by_id[pid], children: n } }
