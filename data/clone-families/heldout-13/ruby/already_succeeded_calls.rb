history = context[:conversation_history] || []
done = []
late = []
history.each do |rec|
  method = rec[:method_name].to_s
  next if method.empty?
  signature = [method, rec[:args] || []]
  late << rec[:call_id] if done.include?(signature)
  done << signature if (rec[:outcome_summary] || {})[:ok] == true && !done.include?(signature)
end
late
