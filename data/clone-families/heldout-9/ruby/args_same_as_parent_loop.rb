history = context[:conversation_history] || []
args_of = {}
history.each { |h| args_of[h[:call_id]] = h[:args] || [] }
echoes = []
history.each do |h|
  pid = h[:parent_call_id]
  next if pid.nil? || pid.empty? || !args_of.key?(pid)
  mine = h[:args] || []
  next if mine.empty?
  echoes << { call_id: h[:call_id], parent: pid, args: mine } if mine == args_of[pid]
end
{ same_args_as_parent: echoes, with_parent: history.count { |h| args_of.key?(h[:parent_call_id]) } }
