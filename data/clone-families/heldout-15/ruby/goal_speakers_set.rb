require "set"

involved = Hash.new { |h, k| h[k] = Set.new }
record_count = 0
Array(context[:conversation_history]).each do |r|
  record_count += 1
  g = r[:goal].to_s.strip
  s = r[:speaker].to_s
  involved[g] << s unless g.empty? || s.empty?
end
{ goals: involved.transform_values { |set| set.to_a.sort }, records_scanned: record_count }
