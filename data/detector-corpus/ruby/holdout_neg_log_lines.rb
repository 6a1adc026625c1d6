log = kwargs[:log].to_s
errors = log.lines.select { |l| l.include?("ERROR") }
result = errors.last(5).map(&:strip)
