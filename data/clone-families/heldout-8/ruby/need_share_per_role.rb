history = context[:conversation_history] || []
history.group_by { |r| r[:role] }.transform_values do |recs|
  recs.count { |r| !r[:need].to_s.empty? }.to_f / recs.size
end
