start_ts = args[0]
end_ts = args[1]
result = (context[:conversation_history] || []).filter_map do |c|
  ts = c[:timestamp]
  c[:call_id] if ts && ts.between?(start_ts, end_ts)
end
