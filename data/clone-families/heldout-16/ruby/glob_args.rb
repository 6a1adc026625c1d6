history = context[:conversation_history] || []
found = {}
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  patterns = (rec[:args] || []).select { |a| a.is_a?(String) && a.include?("*") && a !~ /\s/ }
  found[rec[:call_id]] = patterns unless patterns.empty?
end
found
