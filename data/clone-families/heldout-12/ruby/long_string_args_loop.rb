history = context[:conversation_history] || []
max_chars = 80
flagged = []
history.each_with_index do |item, idx|
  name = item[:method_name]
  next unless name.is_a?(String) && name != ""
  values = item[:args]
  next unless values.is_a?(Array)
  values.each do |v|
    next unless v.class == String
    if v.length > max_chars
      flagged << item[:call_id]
      break
    end
  end
end
{ count: flagged.length, call_ids: flagged, limit: max_chars }
