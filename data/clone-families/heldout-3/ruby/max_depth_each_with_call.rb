max_d = 0
at_call = nil
log = context[:conversation_history]
unless log.nil?
  log.each do |r|
    depth = r[:depth]
    next if depth.nil?
    if depth > max_d
      max_d = depth
      at_call = r[:call_id]
    end
  end
end
result = [max_d, at_call]
