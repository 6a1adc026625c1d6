calls = context[:conversation_history] || []
name = kwargs[:method]
indexed = calls.each_with_index.select { |c, _i| c[:method_name] == name }
pick = indexed.max_by { |_c, i| i }
result = pick && [pick[0][:args] || [], pick[0][:kwargs] || {}]
