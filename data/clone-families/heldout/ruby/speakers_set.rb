require "set"

history = context[:conversation_history] || []
roles = Set.new
history.each { |h| roles.add(h[:speaker]) }
result = roles.to_a
