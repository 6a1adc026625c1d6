history = context[:conversation_history] || []
wanted = kwargs[:method]
tally = Hash.new(0)
history.each do |record|
  args = record[:args] || []
  next if args.empty?
  tally[args.first] += 1
end
{ method: wanted, first_args: tally }
