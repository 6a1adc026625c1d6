require "set"

history = context[:conversation_history] || []
all_keys = history.each_with_object(Set.new) do |entry, acc|
  acc.merge((entry[:kwargs] || {}).keys.map(&:to_s))
end
result = all_keys.to_a.sort
