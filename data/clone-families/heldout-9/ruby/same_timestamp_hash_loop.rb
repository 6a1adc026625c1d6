history = context[:conversation_history] || []
buckets = {}
history.each do |entry|
  stamp = entry[:timestamp]
  next if stamp.nil? || stamp.empty?
  (buckets[stamp] ||= []) << entry[:call_id]
end
clashes = buckets.reject { |_, ids| ids.length < 2 }
{ same_second: clashes, groups: clashes.size, records: clashes.values.sum(&:length) }
