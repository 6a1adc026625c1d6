require "set"

history = context[:conversation_history] || []
parents = Set.new
history.each { |r| parents << r[:parent_call_id] if r[:parent_call_id] }
history.reject { |r| parents.include?(r[:call_id]) }.group_by { |r| r[:depth] }.transform_values(&:size)
