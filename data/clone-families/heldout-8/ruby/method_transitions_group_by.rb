records = context[:conversation_history] || []
seq = records.filter_map { |r| r[:method_name] unless r[:method_name].to_s == "" }
pairs = seq.zip(seq.drop(1)).reject { |_, b| b.nil? }
grouped = pairs.group_by(&:itself).transform_values(&:size)
{ transitions: grouped, distinct: grouped.size }
