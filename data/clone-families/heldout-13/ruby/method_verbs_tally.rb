log = context[:conversation_history] || []
log.filter_map { |entry| entry[:method_name] }
   .reject(&:empty?)
   .map { |m| m[/\A[^_]+/] }
   .tally
