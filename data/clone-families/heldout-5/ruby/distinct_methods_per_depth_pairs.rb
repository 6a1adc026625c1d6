convo = context[:conversation_history] || []
pairs = convo.map { |h| [h[:depth], h[:method_name]] }.uniq

grouped = pairs.each_with_object(Hash.new { |hh, k| hh[k] = [] }) do |(d, m), acc|
  acc[d] << m
end
grouped.transform_values(&:sort)
