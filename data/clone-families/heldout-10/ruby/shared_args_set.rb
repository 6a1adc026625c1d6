require "set"

log = context[:conversation_history] || []
owners = {}
log.each do |entry|
  next if entry[:args].nil? || entry[:args].empty?
  next if entry[:method_name].nil? || entry[:method_name].empty?
  (owners[entry[:args]] ||= Set.new) << entry[:method_name]
end
owners.filter_map { |args, names| [args, names.to_a.sort] if names.size >= 2 }
