log = context[:conversation_history] || []
name = kwargs.fetch(:method, nil)
firsts = log.select { |e| e[:method_name] == name }.filter_map { |e| Array(e[:args]).first }
counts = firsts.tally
counts.sort_by { |arg, n| [-n, arg.to_s] }.map { |arg, n| "#{arg.inspect} x#{n}" }.join("\n")
