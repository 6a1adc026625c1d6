history = context[:conversation_history] || []

deduped = []
history.each do |rec|
  key = [rec[:method], rec[:args]]
  deduped << key unless deduped.last == key
end

deduped
