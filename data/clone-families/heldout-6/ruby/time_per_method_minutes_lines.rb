def epoch_of(stamp)
  y, mo, d, h, mi, s = stamp.scan(/\d+/).first(6).map(&:to_i)
  Time.utc(y, mo, d, h, mi, s).to_i
end

log = context[:conversation_history] || []
minutes = Hash.new(0)
i = 0
while i < log.size - 1
  method = log[i][:method_name]
  if method
    minutes[method] += (epoch_of(log[i + 1][:timestamp]) - epoch_of(log[i][:timestamp])) / 60.0
  end
  i += 1
end
minutes.map { |m, v| "#{m}: #{v.round(2)} min" }.join("\n")
