target_method = kwargs[:method]
log = context[:conversation_history] || []
i = log.size - 1
last_args = nil
last_kwargs = nil
while i >= 0
  rec = log[i]
  if rec && rec[:method_name] == target_method
    last_args = rec[:args]
    last_kwargs = rec[:kwargs]
    break
  end
  i -= 1
end
result = last_args.nil? && last_kwargs.nil? ? nil : { args: last_args, kwargs: last_kwargs }
