history = context[:conversation_history] || []
users = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  args = rec[:args] || []
  name = rec[:method_name].to_s
  next if args.empty? || name.empty?
  users[args] << name unless users[args].include?(name)
end
users.select { |_, names| names.size > 1 }.transform_values(&:sort)
