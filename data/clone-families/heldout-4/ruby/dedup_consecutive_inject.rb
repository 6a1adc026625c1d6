log = context[:conversation_history] || []
collapsed = log.inject([]) do |acc, entry|
  sig = [entry[:method], entry[:args] || []]
  acc.last == sig ? acc : acc + [sig]
end
collapsed.map { |m, a| "#{m}(#{a.map(&:inspect).join(', ')})" }.join("\n")
