require "set"

history = context[:conversation_history] || []
with_parent = Set.new
without_parent = Set.new
history.each do |h|
  m = h[:method_name]
  next unless m.is_a?(String) && !m.empty?
  if h[:parent_call_id].is_a?(String) && !h[:parent_call_id].empty?
    with_parent << m
  else
    without_parent << m
  end
end
only_nested = (with_parent - without_parent).to_a.sort
only_nested.empty? ? "every tool has been called at top level" : "tools only ever called as sub-calls: #{only_nested.join(', ')}"
