require 'set'

hist = context[:conversation_history] || []
found = Set.new
hist.each { |h| found.add(h[:speaker]) if h[:speaker] }
result = found.to_a
