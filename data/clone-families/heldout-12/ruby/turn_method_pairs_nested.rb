require "set"

log = context[:conversation_history] || []
current = nil
sets = []
log.each do |entry|
  if entry[:role] == "user"
    current = Set.new
    sets << current
  elsif current && entry[:method_name].to_s != ""
    current << entry[:method_name]
  end
end
matrix = Hash.new { |h, k| h[k] = Hash.new(0) }
sets.each do |s|
  names = s.to_a.sort
  names.each_with_index do |a, i|
    names[(i + 1)..].each { |b| matrix[a][b] += 1 }
  end
end
Agent::Outcome.ok(matrix.transform_values(&:to_h))
