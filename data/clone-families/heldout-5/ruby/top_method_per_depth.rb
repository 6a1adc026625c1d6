history = context[:conversation_history] || []

by_depth = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  by_depth[rec[:depth]] << rec[:method_name]
end

by_depth.keys.sort.to_h { |d| [d, by_depth[d].tally.max_by { |_, c| c }.first] }
