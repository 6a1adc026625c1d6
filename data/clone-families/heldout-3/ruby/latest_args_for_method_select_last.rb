wanted = kwargs.fetch(:method, nil)
matching = (context[:conversation_history] || []).select do |entry|
  entry[:method_name].to_s == wanted.to_s
end
last_call = matching.last
if last_call.nil?
  result = "#{wanted} has not been called yet"
else
  shown_args = (last_call[:args] || []).map(&:inspect).join(", ")
  result = "#{wanted}(#{shown_args}, #{(last_call[:kwargs] || {}).inspect})"
end
