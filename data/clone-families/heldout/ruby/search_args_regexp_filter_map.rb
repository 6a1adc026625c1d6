term = (context.dig(:memory, :search_term) || "invoice").to_s
pattern = Regexp.new(Regexp.escape(term), Regexp::IGNORECASE)
history = context[:conversation_history] || []
result = history.filter_map do |h|
  next unless h[:args].to_s =~ pattern
  { call_id: h[:call_id], method: h[:method_name], at: h[:timestamp] }
end
