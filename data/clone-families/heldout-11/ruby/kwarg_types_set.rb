require "set"

records = context[:conversation_history] || []
by_key = Hash.new { |h, k| h[k] = Set.new }
records.each do |r|
  (r[:kwargs] || {}).each_pair { |k, v| by_key[k] << v.class }
end
by_key.map { |k, classes| [k.to_s, classes.map(&:to_s).sort] }.sort_by(&:first).to_h
