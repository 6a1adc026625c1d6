log = context[:conversation_history] || []
log.group_by { |e| e[:method] }.to_h do |method, group|
  [method, group.flat_map { |e| e[:kwargs].keys }.uniq.map(&:to_s).sort]
end
