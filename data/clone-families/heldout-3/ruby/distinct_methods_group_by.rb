banner = "tools used so far"
records = context[:conversation_history] || []
grouped = records.reject { |r| r[:method_name].nil? }.group_by { |r| r[:method_name] }
result = [banner, grouped.keys]
