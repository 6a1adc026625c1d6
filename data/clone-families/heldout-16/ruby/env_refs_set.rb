require "set"

records = context.fetch(:conversation_history, nil) || []
vars = Hash.new { |h, k| h[k] = Set.new }
records.each do |r|
  next if r[:method_name].to_s.empty?

  Array(r[:args]).grep(String).each do |s|
    s.scan(/\$\{?([A-Z_][A-Z0-9_]*)/) { |(v)| vars[r[:method_name]] << v }
  end
end
vars.transform_values { |set| set.to_a.sort }
