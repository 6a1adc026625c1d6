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
common = turns.empty? ? [] : turns.map(&:uniq).reduce { |acc, methods| acc & methods }
common.sort
