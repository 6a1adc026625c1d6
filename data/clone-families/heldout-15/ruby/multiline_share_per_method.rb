history = context[:conversation_history] || []
calls = Hash.new(0)
multiline = Hash.new(0)
history.each do |rec|
  name = rec[:method_name]
  next if name.nil? || name.empty?

  calls[name] += 1
  if (rec[:args] || []).any? { |a| a.is_a?(String) && a.include?("\n") }
    multiline[name] += 1
  end
end
calls.to_h { |name, n| [name, multiline[name].fdiv(n).round(3)] }
