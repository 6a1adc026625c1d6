require "set"

calls = context[:conversation_history] || []
ordered = calls.each_with_object(Set.new) { |c, acc| acc << c[:method_name] if c[:method_name] }
result = { methods: ordered.to_a, count: ordered.size }
