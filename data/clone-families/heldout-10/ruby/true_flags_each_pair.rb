log = context[:conversation_history] || []
on = log.each_with_object({}) do |entry, acc|
  opts = entry[:kwargs]
  next unless opts.is_a?(Hash)
  opts.each_pair do |flag, setting|
    next unless setting.equal?(true)
    acc[flag] = acc.fetch(flag, 0) + 1
  end
end
on.map { |flag, n| "#{flag}=true on #{n} call#{n == 1 ? '' : 's'}" }
