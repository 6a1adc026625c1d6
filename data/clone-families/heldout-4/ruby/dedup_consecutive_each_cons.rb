entries = context[:conversation_history] || []
if entries.empty?
  []
else
  kept = [entries.first]
  entries.each_cons(2) do |prev, cur|
    same = prev[:method] == cur[:method] && prev[:args] == cur[:args]
    kept << cur unless same
  end
  kept.map { |e| { call_id: e[:call_id], method: e[:method], args: e[:args] } }
end
