def action_of(method_name)
  method_name.split("_", 2).first
end

history = context[:conversation_history] || []
names = history.map { |h| h[:method_name] }.compact.reject(&:empty?)
total = names.size

rows = names.group_by { |n| action_of(n) }.map do |action, group|
  { action: action, calls: group.size, share: total.zero? ? 0.0 : (100.0 * group.size / total).round(1),
    methods: group.uniq.sort }
end
rows.sort_by { |row| -row[:calls] }
