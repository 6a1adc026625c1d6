FLAG = /(?<!\S)(--?[A-Za-z][\w-]*)(?==|\s|\z)/

calls = Array(context[:conversation_history]).select { |c| c[:method_name] && !c[:method_name].empty? }
calls.flat_map { |c| (c[:args] || []).grep(String) }
     .flat_map { |s| s.scan(FLAG).map(&:first) }
     .tally
