to_time = ->(s) { Time.utc(*s.scan(/\d+/).map(&:to_i)) }
entries = context[:conversation_history] || []
ids = entries.map { |e| e[:call_id] }
waits = entries.each_with_object({}) do |e, acc|
  pid = e[:parent_call_id]
  next unless ids.include?(pid)
  parent = entries[ids.index(pid)]
  acc[pid] ||= (to_time.(e[:timestamp]) - to_time.(parent[:timestamp])).to_i
end
waits.map { |pid, s| "#{pid}: first child after #{s}s" }.join("\n")
