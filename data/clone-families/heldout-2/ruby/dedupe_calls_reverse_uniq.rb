records = context[:conversation_history] || []
deduped = records.select { |rec| rec[:method_name] }.reverse.uniq { |rec| rec[:method_name] }.reverse
result = deduped.map { |rec| { method: rec[:method_name], call_id: rec[:call_id] } }
