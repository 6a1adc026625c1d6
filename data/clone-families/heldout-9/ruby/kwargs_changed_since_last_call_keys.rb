history = context[:conversation_history] || []
previous = {}
diffs = []
history.each do |h|
  m = h[:method_name].to_s
  next if m.empty?
  now = h[:kwargs] || {}
  if previous.include?(m)
    before = previous[m]
    keys = (before.keys | now.keys).reject { |k| before[k] == now[k] && before.key?(k) == now.key?(k) }
    diffs << { call_id: h[:call_id], method: m, changed: keys } unless keys.empty?
  end
  previous[m] = now
end
{ kwarg_changes: diffs, calls_checked: history.count { |h| !h[:method_name].to_s.empty? } }
