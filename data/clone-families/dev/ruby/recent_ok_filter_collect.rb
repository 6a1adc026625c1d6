records = context[:conversation_history] || []

succeeded = records.filter do |rec|
  rec[:outcome_summary] && rec[:outcome_summary][:ok]
end

recent = succeeded.reverse.first(4).reverse

result = recent.collect do |rec|
  args = (rec[:args] || []).join(", ")
  "#{rec[:method_name]}(#{args}) -> #{rec[:outcome_summary][:value_class]}"
end
