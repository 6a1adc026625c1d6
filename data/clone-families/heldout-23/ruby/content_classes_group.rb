history = context[:conversation_history] || []
with_role = history.reject do |record|
  record[:role].to_s.empty?
end
grouped = with_role.group_by { |record| record[:role] }
grouped.transform_values do |records|
  records.map { |record| record[:content].class.name }.tally
end
