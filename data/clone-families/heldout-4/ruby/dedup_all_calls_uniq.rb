history = context[:conversation_history] || []

deduped = []
history.each do |rec|
  key = [rec[:method], rec[:args]]
  deduped << key unless deduped.include?(key)
end

deduped
