records = context[:conversation_history] || []
records.group_by { |r| r[:speaker] }.transform_values { |rs| (rs.sum { |r| r[:depth].to_i }.to_f / rs.size).round(2) }
