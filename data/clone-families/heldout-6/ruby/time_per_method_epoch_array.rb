require "time"

records = context[:conversation_history] || []
stamps = records.map { |r| Time.iso8601(r[:timestamp]).to_f }
durations = records.each_index.first([records.size - 1, 0].max).map { |k| [records[k][:method_name], stamps[k + 1] - stamps[k]] }
durations.reject { |name, _| name.nil? }.group_by(&:first).transform_values { |rows| rows.sum(&:last) }
