history = context[:conversation_history] || []
methods = history.map { |r| r[:method_name] }.reject { |m| m.nil? || m.empty? }
methods.each_cons(2).to_a.uniq
