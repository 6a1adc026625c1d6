history = context[:conversation_history] || []
kinds = Hash.new(0)
history.each do |rec|
  next if rec[:method_name].nil? || rec[:method_name].empty?

  (rec[:args] || []).each do |arg|
    next unless arg.is_a?(String)

    verb = arg.strip[/\A(select|insert|update|delete)\b/i, 1]
    kinds[verb.upcase] += 1 if verb
  end
end
kinds
