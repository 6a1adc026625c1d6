history = context[:conversation_history] || []
firsts = history.reject { |r| r[:method_name].nil? }.uniq { |r| r[:method_name] }
result = firsts.to_h { |r| [r[:method_name], r[:call_id]] }
