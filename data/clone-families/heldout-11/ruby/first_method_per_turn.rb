history = context[:conversation_history] || []
turns = []
history.each do |rec|
  if rec[:role] == "user"
    turns << []
  elsif !turns.empty?
    name = rec[:method_name].to_s
    turns.last << name unless name.empty?
  end
end
openers = turns.map(&:first).compact
openers.uniq.sort
