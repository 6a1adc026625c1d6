target = kwargs.fetch(:method, nil)
recs = context[:conversation_history] || []

i = 0
seen = []
while i < recs.length
  seen.push([recs[i][:timestamp], recs[i][:args]]) if recs[i][:method_name] == target
  i += 1
end

{ method: target, times_called: seen.size, args: seen.map(&:last) }
