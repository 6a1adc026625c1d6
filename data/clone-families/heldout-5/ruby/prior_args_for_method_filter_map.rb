m = kwargs[:method]
(context[:conversation_history] || []).filter_map { |h| h[:args] || [] if h[:method_name] == m }
