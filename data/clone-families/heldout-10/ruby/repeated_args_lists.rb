history = context[:conversation_history] || []
uses = Hash.new(0)
history.each do |rec|
  args = rec[:args] || []
  name = rec[:method_name].to_s
  next if args.empty? || name.empty?
  uses[args] += 1
end
uses.select { |_, count| count > 1 }
