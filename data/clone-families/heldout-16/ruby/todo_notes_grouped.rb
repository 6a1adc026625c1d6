msgs = context.fetch(:conversation_history, nil) || []
grouped = Hash.new { |h, k| h[k] = [] }
msgs.each do |msg|
  body = msg[:content]
  next unless body.is_a?(String) && (body.include?("TODO") || body.include?("FIXME"))

  body.each_line do |line|
    if (hit = /\b(TODO|FIXME)\b:?[ \t]*(.*)$/.match(line))
      grouped[hit[1]] << [msg[:call_id], hit[2].strip]
    end
  end
end
grouped.to_h
