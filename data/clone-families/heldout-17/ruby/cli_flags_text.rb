require "set"

log = context.fetch(:conversation_history, nil) || []
uses = Hash.new(0)
log.each do |r|
  next if r[:method_name].to_s.empty?

  (r[:args] || []).grep(String).each do |s|
    s.split.grep(/\A--?[A-Za-z][\w-]*(=|\z)/) { |tok| uses[tok.split("=", 2).first] += 1 }
  end
end
if uses.empty?
  "No command-line flags in any call's arguments."
else
  "Flags passed: " + uses.map { |f, n| "#{f} x#{n}" }.join(", ")
end
