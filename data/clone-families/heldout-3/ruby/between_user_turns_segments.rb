segments = [[]]
(context[:conversation_history] || []).each do |rec|
  if rec[:speaker] == "user"
    segments << []
  else
    segments.last << rec[:call_id]
  end
end
# segments.first holds what came before the first user turn
result = segments.size >= 3 ? segments[-2] : []
