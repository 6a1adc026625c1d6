(context[:conversation_history] || []).group_by { |r| r[:depth] }.transform_values { |rs| rs.map { |r| r[:method_name] }.uniq.sort }
