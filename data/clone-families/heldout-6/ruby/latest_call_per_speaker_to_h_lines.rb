turns = context[:conversation_history] || []
last_seen = turns.map { |t| [t[:speaker], [t[:call_id], t[:method_name]]] }.to_h
if last_seen.empty?
  "nobody has spoken yet"
else
  last_seen.map { |who, (cid, meth)| "#{who} -> #{cid}#{meth ? " (#{meth})" : ''}" }.join("\n")
end
